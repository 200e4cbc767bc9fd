package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.query.WindowedResult;
import io.fournines.nexmark.trades.Trade;

/**
 * The {@code trades} query of the Jet team's Kafka latency benchmark: per ticker, the mean number of
 * trades per second over a sliding window (20 s sliding by 20 ms there), i.e. the window's count
 * divided by its length in seconds. Counting deducts, so each slide costs two operations per ticker
 * whatever the window's length.
 */
public final class TradesPerSecond {

    public static final String NAME = "trades";

    /** One ticker's rate in the window {@code [start, end)}. */
    public record TickerRate(String ticker, long start, long end, double tradesPerSecond) implements WindowedResult {
    }

    private TradesPerSecond() {
    }

    public static StreamStage<TickerRate> attach(StreamStage<Trade> trades, long windowMs, long slideMs) {
        double seconds = windowMs / 1000.0;
        return trades.groupingKey(Trade::ticker)
                     .window(WindowDefinition.sliding(windowMs, slideMs))
                     .aggregate(AggregateOperations.counting())
                     .map(r -> new TickerRate(r.key(), r.start(), r.end(), r.result() / seconds));
    }
}
