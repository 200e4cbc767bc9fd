package io.fournines.nexmark.queries;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Q3's join state for one person id: the persons and the auctions they sell, each pairing with
 * every one of the other kind, as soon as the second arrives (several persons share an id when ids
 * are recycled). An auction is dropped once it has expired; a person once {@code personTtlMs} of
 * event time has passed since it was created, after which a later auction of theirs finds no match.
 */
final class PersonAuctionJoin extends ExpiringJoin<Person, Auction> {

    private final long personTtlMs;

    PersonAuctionJoin(long personTtlMs) {
        this.personTtlMs = personTtlMs;
    }

    /** Adds the event; returns the pairs it completes, made into results, or null for none. */
    <R> List<R> addAndPair(Event event, BiFunction<? super Person, ? super Auction, ? extends R> pairFn) {
        return event instanceof Person p ? addLeft(p, pairFn) : addRight((Auction) event, pairFn);
    }

    @Override
    long expiryOfLeft(Person p) {
        return p.dateTime() + personTtlMs;
    }

    @Override
    long expiryOfRight(Auction a) {
        return a.expires();
    }

    @Override
    boolean matches(Person p, Auction a) {
        return true;
    }
}
