package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import io.fournines.nexmark.query.WindowedResult;

/**
 * Not a benchmark query but the Drizzle paper's scheduling micro-benchmark (§5.2): tasks sum random
 * numbers, so each batch costs well under a millisecond of compute and what a batch takes is what
 * scheduling it costs. Every source task sums its numbers per tumbling window (one batch's worth by
 * default) and the sums are collected into one per window (the driver's collection, in the paper);
 * with {@code reduceKeys} above 0 the numbers first go through a shuffle stage, summed per key of
 * {@code reduceKeys} (the paper's 16-task shuffle), before the collection.
 */
public final class ScheduledSums {

    public static final String NAME = "sums";

    /** A random number, drawn at {@code timeMs} (its event time: its scheduled time). */
    public record Drawn(long value, long timeMs) {
    }

    /** The numbers' sum in the window {@code [start, end)}. */
    public record WindowSum(long start, long end, long sum) implements WindowedResult {
    }

    private ScheduledSums() {
    }

    /** The random number of sequence {@code sequence}: the same on every run, member and engine (a SplitMix64 step, below 2^20). */
    public static long number(long sequence) {
        long z = sequence * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) >>> 44;
    }

    /** A window's result is timed at its end - 1, so the collection's window of the same length holds exactly one per key. */
    public static StreamStage<WindowSum> attach(StreamStage<Drawn> numbers, long reduceKeys, long windowMs) {
        WindowDefinition window = WindowDefinition.tumbling(windowMs);
        StreamStage<WindowResult<Long>> sums = reduceKeys == 0
                ? numbers.window(window).aggregate(AggregateOperations.summingLong(Drawn::value))
                : numbers.groupingKey(n -> Math.floorMod(n.value(), reduceKeys)).window(window).aggregate(AggregateOperations.summingLong(Drawn::value))
                         .window(window).aggregate(AggregateOperations.summingLong(KeyedWindowResult::result));
        return sums.map(r -> new WindowSum(r.start(), r.end(), r.result()));
    }
}
