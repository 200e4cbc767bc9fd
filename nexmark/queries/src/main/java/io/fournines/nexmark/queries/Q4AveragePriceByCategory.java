package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.CategoryAverage;

/**
 * Q4: per sliding window of auction close times and category, the floor of the mean winning
 * price. The winners come timed in frames one slide long, so they fall in the windows of their
 * close time.
 */
public final class Q4AveragePriceByCategory implements WindowedQuery<CategoryAverage> {

    private final WindowDefinition window;

    public Q4AveragePriceByCategory(long windowMs, long slideMs) {
        this.window = WindowDefinition.sliding(windowMs, slideMs);
    }

    @Override
    public StreamStage<CategoryAverage> attach(StreamStage<Event> events) {
        return WinningBids.of(events, window.slide())
                .groupingKey(won -> won.key().category())
                .window(window)
                .aggregate(FloorMean.of(won -> won.result().price()))
                .map(avg -> new CategoryAverage(avg.start(), avg.end(), avg.key(), avg.result()));
    }
}
