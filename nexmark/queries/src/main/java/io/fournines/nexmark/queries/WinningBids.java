package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;

import java.util.Comparator;
import java.util.List;

/**
 * The winning bid of every auction that has one (Q4, Q6): the highest bid placed in {@code
 * [dateTime, expires)} at or above the reserve, the earliest among equal prices.
 *
 * <p>Two steps. A join keyed by auction id pairs each auction with each bid that qualifies for it,
 * as soon as the second of the two arrives (bids may come before their auction). Each pair is timed
 * at the auction's expiry, which is later than both halves, so it is never late. Then a tumbling
 * window of {@code frameMs}, keyed by auction, keeps the best pair: it fires once the watermark
 * passes the frame holding the expiry, when every bid that could win has been seen. The result is
 * timed at the frame's end - 1, so a following window with slide {@code frameMs} puts it in the
 * same windows as the expiry itself.
 *
 * <p>The join drops a bid once the watermark has passed it (every auction it could win has come) and
 * an auction once the watermark has reached its expiry (no later bid can win it): the same results
 * as keeping them, with state bounded by the auctions open at once.
 */
final class WinningBids {

    private static final Comparator<AuctionBid> PRICE_THEN_EARLIEST =
            Comparator.comparingLong((AuctionBid ab) -> ab.bid().price())
                      .thenComparing(ab -> ab.bid().dateTime(), Comparator.reverseOrder());

    private WinningBids() {
    }

    /** An auction and a bid that qualifies to win it. */
    record AuctionBid(Auction auction, Bid bid) {
    }

    /** Per auction with a winner: key the auction, result its winning bid. */
    static StreamStage<KeyedWindowResult<Auction, Bid>> of(StreamStage<Event> events, long frameMs) {
        return events.filter(e -> e instanceof Auction || e instanceof Bid)
                     .groupingKey(EventStages::auctionOf)
                     .mapStatefulExpiring(AuctionBook::new, (AuctionBook book, Long id, Event e) -> book.addAndPair(e))
                     .flatMap((List<AuctionBid> pairs) -> Traversers.traverseIterable(pairs))
                     .withTimestamps(ab -> ab.auction().expires())
                     .groupingKey(AuctionBid::auction)
                     .window(WindowDefinition.tumbling(frameMs))
                     .aggregate(AggregateOperations.maxBy(PRICE_THEN_EARLIEST).andThen(AuctionBid::bid));
    }

    /** The auctions and bids of one auction id (several auctions share an id when ids are recycled). */
    private static final class AuctionBook extends ExpiringJoin<Auction, Bid> {

        /** Adds the event; returns the qualifying pairs it completes, or null for none. */
        List<AuctionBid> addAndPair(Event event) {
            return event instanceof Auction a ? addLeft(a, AuctionBid::new) : addRight((Bid) event, AuctionBid::new);
        }

        @Override
        long expiryOfLeft(Auction a) {
            return a.expires();
        }

        /** A later auction's dateTime is at least the watermark; past the bid's, it cannot take the bid. */
        @Override
        long expiryOfRight(Bid b) {
            return b.dateTime() + 1;
        }

        @Override
        boolean matches(Auction a, Bid b) {
            return b.dateTime() >= a.dateTime() && b.dateTime() < a.expires() && b.price() >= a.reserve();
        }
    }
}
