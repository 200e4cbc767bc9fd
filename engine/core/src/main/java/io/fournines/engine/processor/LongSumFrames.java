package io.fournines.engine.processor;

import io.fournines.engine.aggregate.LongAccumulator;
import org.agrona.collections.Long2ObjectHashMap;
import io.fournines.engine.core.PartitionedKey;
import io.fournines.engine.core.Processor;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayDeque;
import java.util.function.BiConsumer;

/**
 * Window state for sums of longs (counting, summing): each frame is an open-addressing map from key
 * to a primitive long, and so is the running window sum. Evicted frame maps are cleared and reused,
 * so in steady state this state allocates nothing and holds no object per key and frame.
 */
final class LongSumFrames implements WindowFrames {

    /** Marks "no entry" inside the maps; a real sum of Long.MIN_VALUE cannot be stored. */
    private static final long ABSENT = Long.MIN_VALUE;
    private static final String SNAPSHOT_ID = "long-sum-frames";

    private final Long2ObjectHashMap<Object2LongHashMap<Object>> frames = new Long2ObjectHashMap<>();
    private final Object2LongHashMap<Object> running = new Object2LongHashMap<>(ABSENT);
    private final ArrayDeque<Object2LongHashMap<Object>> spareMaps = new ArrayDeque<>();
    /** Hands each key's window sum out as an accumulator without making one per key. */
    private final LongAccumulator scratch = new LongAccumulator();
    private long firstFrameEnd = Long.MAX_VALUE;
    private long currentFrameEnd = Long.MIN_VALUE;
    private Object2LongHashMap<Object> currentFrame;

    @Override
    public void add(long frameEnd, Object key, Object accumulator) {
        addSum(frameEnd, key, ((LongAccumulator) accumulator).get());
    }

    private void addSum(long frameEnd, Object key, long value) {
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.get(frameEnd);
            if (currentFrame == null) {
                currentFrame = spareMaps.isEmpty() ? new Object2LongHashMap<>(ABSENT) : spareMaps.pop();
                frames.put(frameEnd, currentFrame);
                firstFrameEnd = Math.min(firstFrameEnd, frameEnd);
            }
            currentFrameEnd = frameEnd;
        }
        currentFrame.put(key, currentFrame.getOrDefault(key, 0) + value);
    }

    @Override
    public boolean hasFrames() {
        return !frames.isEmpty();
    }

    @Override
    public long firstFrameEnd() {
        return firstFrameEnd;
    }

    @Override
    public boolean windowIsEmpty() {
        return running.isEmpty();
    }

    @Override
    public void emitAndSlide(long start, long end, long slide, AccumulatorSink out) {
        Object2LongHashMap<Object> newest = frames.get(end);
        if (newest != null) {
            newest.forEachLong((key, value) -> running.put(key, running.getOrDefault(key, 0) + value));
        }
        running.forEachLong((key, value) -> {
            scratch.set(value);
            out.accept(key, scratch);
        });
        long leavingEnd = start + slide;
        Object2LongHashMap<Object> leaving = frames.remove(leavingEnd);
        if (leaving == null) {
            return;
        }
        leaving.forEachLong((key, value) -> {
            long remaining = running.getValue(key) - value;
            // A key whose window sum is back to zero is dropped, as ObjectFrames drops an empty accumulator.
            if (remaining == 0) {
                running.removeKey(key);
            } else {
                running.put(key, remaining);
            }
        });
        leaving.clear();
        spareMaps.push(leaving);
        if (leaving == currentFrame) {
            currentFrame = null;
            currentFrameEnd = Long.MIN_VALUE;
        }
        if (leavingEnd == firstFrameEnd) {
            firstFrameEnd = oldestFrameEnd();
        }
    }

    /**
     * One entry per partition holding all its (frame, key, sum) triples as arrays: one pass over the
     * frames, and serializing a few arrays instead of an object per partial.
     */
    @Override
    public void saveTo(Processor.Context context, BiConsumer<Object, Object> out) {
        Int2ObjectHashMap<LongSumSeries.Builder> byPartition = new Int2ObjectHashMap<>();
        frames.forEach((frameEnd, frame) -> frame.forEachLong((key, sum) ->
                byPartition.computeIfAbsent(context.partitionOf(key), p -> new LongSumSeries.Builder()).add(frameEnd, key, sum)));
        byPartition.forEach((partition, series) -> out.accept(new PartitionedKey(partition, SNAPSHOT_ID), series.build()));
    }

    @Override
    public void restore(Object key, Object value) {
        ((LongSumSeries) value).forEach(this::addSum);
    }

    /** Frames up to the last emitted window are the ones already summed into the running window. */
    @Override
    public void resumeAfter(long emittedUpTo) {
        frames.forEach((frameEnd, frame) -> {
            if (frameEnd <= emittedUpTo) {
                frame.forEachLong((key, value) -> running.put(key, running.getOrDefault(key, 0) + value));
            }
        });
    }

    private long oldestFrameEnd() {
        long oldest = Long.MAX_VALUE;
        for (Long2ObjectHashMap<Object2LongHashMap<Object>>.KeyIterator it = frames.keySet().iterator(); it.hasNext(); ) {
            oldest = Math.min(oldest, it.nextLong());
        }
        return oldest;
    }
}
