package io.fournines.nexmark.query;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The person events and auction events of one person id (the auctions they sell): Q8's per-window
 * accumulator. Every person event pairs with every auction event, because with recycled ids several
 * person events may carry the same id. Every engine's plan uses this accumulator; serializable, as
 * window state goes into snapshots.
 */
public final class SellerGroup implements Serializable {

    private final List<Person> persons = new ArrayList<>();
    private final List<Auction> auctions = new ArrayList<>();

    public void add(Event event) {
        if (event instanceof Person p) {
            persons.add(p);
        } else {
            auctions.add((Auction) event);
        }
    }

    public void addAll(SellerGroup other) {
        persons.addAll(other.persons);
        auctions.addAll(other.auctions);
    }

    /** Every (person, auction) pair, made into a result. */
    public <R> List<R> pairs(BiFunction<? super Person, ? super Auction, ? extends R> pairFn) {
        List<R> out = new ArrayList<>(persons.size() * auctions.size());
        for (Person p : persons) {
            for (Auction a : auctions) {
                out.add(pairFn.apply(p, a));
            }
        }
        return out;
    }
}
