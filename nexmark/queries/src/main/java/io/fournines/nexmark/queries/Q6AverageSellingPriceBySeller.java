package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.processor.ExpiringState;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.SellerAverage;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * Q6: each time one of a seller's auctions closes with a winner, the floor of the mean winning price
 * of that seller's last 10 closed auctions. The average depends on close order (expiry, then
 * auction id, then creation time), which the engine does not keep across keys, so the winners of one frame are gathered
 * per seller and sorted before they enter the seller's history. A seller's frames reach it in order
 * because one instance owns the seller in both stages. A result's latency runs from the end of the
 * frame its auction closed in, when the frame's winners are known: a longer frame adds its length.
 *
 * <p>A seller's history is forgotten {@code sellerTtlMs} of event time after their last auction
 * closed (a seller the generator has stopped drawing), so an endless run keeps bounded state; a
 * seller who sells again after that starts a new history.
 */
public final class Q6AverageSellingPriceBySeller implements WindowedQuery<SellerAverage> {

    static final int LAST = 10;
    private static final Comparator<KeyedWindowResult<Auction, Bid>> CLOSE_ORDER =
            Comparator.comparingLong((KeyedWindowResult<Auction, Bid> won) -> won.key().expires())
                      .thenComparingLong(won -> won.key().id())
                      .thenComparingLong(won -> won.key().dateTime());

    private final WindowDefinition frame;
    private final long sellerTtlMs;

    /**
     * @param frameMs     how long winners are gathered before they are averaged: latency against batching
     * @param sellerTtlMs how long after their last close a seller's history is kept
     */
    public Q6AverageSellingPriceBySeller(long frameMs, long sellerTtlMs) {
        this.frame = WindowDefinition.tumbling(frameMs);
        this.sellerTtlMs = sellerTtlMs;
    }

    @Override
    public long windowEnd(SellerAverage result) {
        return frame.frameEnd(result.dateTime());
    }

    @Override
    public StreamStage<SellerAverage> attach(StreamStage<Event> events) {
        long ttl = sellerTtlMs;
        return WinningBids.of(events, frame.size())
                .groupingKey(won -> won.key().seller())
                .window(frame)
                .aggregate(AggregateOperations.<KeyedWindowResult<Auction, Bid>>toList())
                .groupingKey(KeyedWindowResult::key)
                .mapStatefulExpiring(() -> new SellerHistory(ttl), (SellerHistory history, Long seller, KeyedWindowResult<Long, List<KeyedWindowResult<Auction, Bid>>> frame) ->
                        history.close(seller, frame.result()))
                .flatMap((List<SellerAverage> averages) -> Traversers.traverseIterable(averages));
    }

    /** A seller's last {@value #LAST} winning prices, kept {@code ttlMs} after the last close. */
    private static final class SellerHistory implements ExpiringState, Serializable {
        private final long ttlMs;
        private final Deque<Long> prices = new ArrayDeque<>(LAST);
        private long sum;
        private long lastClose;

        SellerHistory(long ttlMs) {
            this.ttlMs = ttlMs;
        }

        @Override
        public long nextExpiry() {
            return lastClose + ttlMs;
        }

        @Override
        public boolean expire(long watermark) {
            return nextExpiry() > watermark;
        }

        List<SellerAverage> close(long seller, List<KeyedWindowResult<Auction, Bid>> closed) {
            List<KeyedWindowResult<Auction, Bid>> inOrder = new ArrayList<>(closed);
            inOrder.sort(CLOSE_ORDER);
            List<SellerAverage> out = new ArrayList<>(inOrder.size());
            for (KeyedWindowResult<Auction, Bid> won : inOrder) {
                if (prices.size() == LAST) {
                    sum -= prices.removeFirst();
                }
                prices.addLast(won.result().price());
                sum += won.result().price();
                out.add(new SellerAverage(seller, won.key().id(), sum / prices.size(), won.key().expires()));
                lastClose = Math.max(lastClose, won.key().expires());
            }
            return out;
        }
    }
}
