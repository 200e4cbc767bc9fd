package io.fournines.engine.processor;

import io.fournines.engine.core.Processor;

import io.fournines.engine.aggregate.AggregateOperation;

/**
 * The state of {@link SlidingWindowP}: partial aggregates per frame and key, and whatever it keeps
 * to compute a window from them. Two forms: any accumulator object, or primitive longs for sums of
 * longs, which keep no object per key and frame, so seconds of window state stay off the GC's back.
 */
interface WindowFrames {

    /** Merges a partial for (frame, key); the frame must not have been evicted. */
    void add(long frameEnd, Object key, Object accumulator);

    boolean hasFrames();

    long firstFrameEnd();

    /** True when the window being slid holds nothing (always true when windows are recombined). */
    boolean windowIsEmpty();

    /**
     * Hands each key's accumulator for the window [start, end) to {@code out}, then evicts the frame
     * ending at {@code start + slide}, the oldest one, which no later window contains.
     */
    void emitAndSlide(long start, long end, long slide, AccumulatorSink out);

    /**
     * The frames as of now for a snapshot, in few, large entries (a large window state holds millions
     * of (frame, key) partials), each keyed so that the owner of its keys restores it. At most one
     * save is written at a time.
     */
    FramesSave save(Processor.Context context);

    /** Takes back an entry a {@link #save} wrote. */
    void restore(Object key, Object value);

    /** After a restore: rebuilds what the frames imply for the window slid up to {@code emittedUpTo}. */
    void resumeAfter(long emittedUpTo);

    /**
     * Takes one key's accumulator of a window. It is valid during the call only: sums of longs hand
     * one reused {@link io.fournines.engine.aggregate.LongAccumulator}, so reading a sum boxes nothing.
     */
    @FunctionalInterface
    interface AccumulatorSink {
        void accept(Object key, Object accumulator);
    }

    static WindowFrames forOperation(AggregateOperation<?, ?, ?> operation) {
        return operation.isSumOfLongs() ? new LongSumFrames.ObjectKeyed() : new ObjectFrames(operation);
    }
}
