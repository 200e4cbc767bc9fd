package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.TiedForMax;

/**
 * Q5: per sliding window, every auction tied for the most bids. Bids are counted per auction in
 * the sliding window (two-stage, sliding by deduction); each window's counts then go, as primitive
 * (auction, count) pairs, into one accumulator of the auctions tied for the maximum per instance,
 * and those are combined across instances: no object per auction and window.
 */
public final class Q5HotItems implements WindowedQuery<HotItem> {

    private final WindowDefinition window;

    public Q5HotItems(long windowMs, long slideMs) {
        this.window = WindowDefinition.sliding(windowMs, slideMs);
    }

    @Override
    public StreamStage<HotItem> attach(StreamStage<Event> events) {
        return EventStages.bids(events)
                .groupingLongKey(Bid::auction)
                .window(window)
                .aggregateSumsOverKeys(bid -> 1, tiedForMostBids())
                .flatMap(hottest -> Traversers.traverseIterable(hottest.result().items())
                        .map(auction -> new HotItem(hottest.start(), hottest.end(), auction, hottest.result().max())));
    }

    /** The auctions tied for the highest count; an auction is boxed only when it is kept. */
    private static OverKeysOperation<TiedForMax<Long>, TiedForMax<Long>> tiedForMostBids() {
        return new OverKeysOperation<>(TiedForMax::new,
                (TiedForMax<Long> acc, long auction, long count) -> {
                    if (acc.keeps(count)) {
                        acc.offer(count, auction);
                    }
                },
                TiedForMax::combine,
                acc -> acc);
    }
}
