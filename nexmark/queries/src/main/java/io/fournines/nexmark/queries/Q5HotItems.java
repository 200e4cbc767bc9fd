package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HotItem;

/**
 * Q5: per sliding window, every auction tied for the most bids. Bids are counted per auction in
 * the sliding window (two-stage, sliding by deduction); the counts of one window then go through a
 * tumbling window one slide long, which holds exactly that window's counts because a window
 * result's event time is its end - 1, and keeps those tied for the maximum.
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
                .aggregate(AggregateOperations.counting())
                .window(WindowDefinition.tumbling(window.slide()))
                .aggregate(TiedForMaxOperation.<KeyedWindowResult<Long, Long>>of(KeyedWindowResult::result))
                .flatMap(hottest -> Traversers.traverseIterable(hottest.result())
                        .map(count -> new HotItem(count.start(), count.end(), count.key(), count.result())));
    }
}
