package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

/** Stages and keys that several queries start from. */
final class EventStages {

    private EventStages() {
    }

    /** The bids, still timed by their {@code dateTime}. */
    static StreamStage<Bid> bids(StreamStage<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e).withTimestamps(Bid::dateTime);
    }

    /** The person a person event or an auction event is about: the person, or the auction's seller. */
    static long personOrSeller(Event event) {
        return event instanceof Person p ? p.id() : ((Auction) event).seller();
    }

    /** The auction an auction event or a bid event is about. */
    static long auctionOf(Event event) {
        return event instanceof Auction a ? a.id() : ((Bid) event).auction();
    }
}
