package io.fournines.nexmark.queries;

import io.fournines.engine.processor.ExpiringState;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Q3's join state for one person id: the persons and the auctions they sell, each pairing with
 * every one of the other kind, as soon as the second arrives (several persons share an id when ids
 * are recycled). An auction is dropped once it has expired; a person once {@code personTtlMs} of
 * event time has passed since it was created, after which a later auction of theirs finds no match.
 */
final class PersonAuctionJoin implements ExpiringState, Serializable {

    private final long personTtlMs;
    private final List<Person> persons = new ArrayList<>();
    private final List<Auction> auctions = new ArrayList<>();
    private long nextExpiry = Long.MAX_VALUE;

    PersonAuctionJoin(long personTtlMs) {
        this.personTtlMs = personTtlMs;
    }

    /** Adds the event; returns the pairs it completes, made into results, or null for none. */
    <R> List<R> addAndPair(Event event, BiFunction<? super Person, ? super Auction, ? extends R> pairFn) {
        List<R> out = new ArrayList<>();
        if (event instanceof Person p) {
            persons.add(p);
            nextExpiry = Math.min(nextExpiry, expiry(p));
            auctions.forEach(a -> out.add(pairFn.apply(p, a)));
        } else {
            Auction a = (Auction) event;
            auctions.add(a);
            nextExpiry = Math.min(nextExpiry, a.expires());
            persons.forEach(p -> out.add(pairFn.apply(p, a)));
        }
        return out.isEmpty() ? null : out;
    }

    @Override
    public long nextExpiry() {
        return nextExpiry;
    }

    @Override
    public boolean expire(long watermark) {
        persons.removeIf(p -> expiry(p) <= watermark);
        auctions.removeIf(a -> a.expires() <= watermark);
        nextExpiry = Math.min(persons.stream().mapToLong(this::expiry).min().orElse(Long.MAX_VALUE),
                auctions.stream().mapToLong(Auction::expires).min().orElse(Long.MAX_VALUE));
        return !persons.isEmpty() || !auctions.isEmpty();
    }

    private long expiry(Person p) {
        return p.dateTime() + personTtlMs;
    }
}
