package io.fournines.engine.processor;

import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.core.Processor;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Window state for sums of longs (counting, summing): each frame is an open-addressing map from key
 * to a primitive long, and so is the running window sum. Evicted frame maps are cleared and reused,
 * so in steady state this state allocates nothing and holds no object per key and frame.
 *
 * <p>A snapshot is saved copy-on-write: {@link #save} only notes which map holds each frame; the
 * frames are written afterwards, newest first, a few thousand partials a call, while windows go on
 * being computed. Until a frame is written its map is neither changed (a partial for it goes into a
 * copy) nor reused once evicted.
 */
final class LongSumFrames implements WindowFrames {

    /** Marks "no entry" inside the maps; a real sum of Long.MIN_VALUE cannot be stored. */
    private static final long ABSENT = Long.MIN_VALUE;
    private static final String SNAPSHOT_ID = "long-sum-frames";
    /** Partials a save writes per call: tens of microseconds of work between two windows' computations. */
    static final int PARTIALS_PER_CALL = 4096;

    private final Long2ObjectHashMap<Object2LongHashMap<Object>> frames = new Long2ObjectHashMap<>();
    private final Object2LongHashMap<Object> running = new Object2LongHashMap<>(ABSENT);
    private final ArrayDeque<Object2LongHashMap<Object>> spareMaps = new ArrayDeque<>();
    /** Hands each key's window sum out as an accumulator without making one per key. */
    private final LongAccumulator scratch = new LongAccumulator();
    private long firstFrameEnd = Long.MAX_VALUE;
    private long currentFrameEnd = Long.MIN_VALUE;
    private Object2LongHashMap<Object> currentFrame;
    /** The maps a snapshot being saved still has to write, by frame end. */
    private final Long2ObjectHashMap<Object2LongHashMap<Object>> unwritten = new Long2ObjectHashMap<>();

    @Override
    public void add(long frameEnd, Object key, Object accumulator) {
        addSum(frameEnd, key, ((LongAccumulator) accumulator).get());
    }

    private void addSum(long frameEnd, Object key, long value) {
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.get(frameEnd);
            if (currentFrame == null) {
                currentFrame = spareMap();
                frames.put(frameEnd, currentFrame);
                firstFrameEnd = Math.min(firstFrameEnd, frameEnd);
            } else if (unwritten.get(frameEnd) == currentFrame) {
                currentFrame = copyOf(currentFrame);
                frames.put(frameEnd, currentFrame);
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
        if (unwritten.get(leavingEnd) != leaving) {
            recycle(leaving);
        }
        if (leaving == currentFrame) {
            currentFrame = null;
            currentFrameEnd = Long.MIN_VALUE;
        }
        if (leavingEnd == firstFrameEnd) {
            firstFrameEnd = oldestFrameEnd();
        }
    }

    /**
     * Entries per partition holding (frame, key, sum) triples as arrays: serializing a few arrays
     * instead of an object per partial.
     */
    @Override
    public FramesSave save(Processor.Context context) {
        if (!unwritten.isEmpty()) {
            throw new IllegalStateException("a snapshot of the window's frames is still being written");
        }
        long[] newestFirst = new long[frames.size()];
        int n = 0;
        for (Long2ObjectHashMap<Object2LongHashMap<Object>>.KeyIterator it = frames.keySet().iterator(); it.hasNext(); ) {
            newestFirst[n++] = it.nextLong();
        }
        Arrays.sort(newestFirst);
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            long end = newestFirst[i];
            newestFirst[i] = newestFirst[j];
            newestFirst[j] = end;
        }
        for (long end : newestFirst) {
            unwritten.put(end, frames.get(end));
        }
        // The next partial looks its frame up again, so it cannot go into a map the snapshot holds.
        currentFrame = null;
        currentFrameEnd = Long.MIN_VALUE;
        return new CopyOnWriteSave(newestFirst, new PartitionedSeries(context, SNAPSHOT_ID));
    }

    /** Writes the frames a save noted, newest first (the ones partials may still arrive for). */
    private final class CopyOnWriteSave implements FramesSave {
        private final long[] frameEnds;
        private final PartitionedSeries series;
        private final ArrayDeque<Map.Entry<Object, Object>> finished = new ArrayDeque<>();
        private int nextFrame;

        CopyOnWriteSave(long[] frameEnds, PartitionedSeries series) {
            this.frameEnds = frameEnds;
            this.series = series;
        }

        @Override
        public boolean writeSome(BiPredicate<Object, Object> out) {
            if (finished.isEmpty()) {
                for (int partials = 0; partials < PARTIALS_PER_CALL && nextFrame < frameEnds.length; nextFrame++) {
                    long end = frameEnds[nextFrame];
                    Object2LongHashMap<Object> frame = unwritten.remove(end);
                    frame.forEachLong((key, sum) -> series.add(end, key, sum));
                    partials += frame.size();
                    if (frames.get(end) != frame) {
                        recycle(frame);  // evicted or copied since the save began
                    }
                }
                series.finishRound(finished::add);
            }
            for (Map.Entry<Object, Object> entry; (entry = finished.peek()) != null; finished.poll()) {
                if (!out.test(entry.getKey(), entry.getValue())) {
                    return false;
                }
            }
            return nextFrame == frameEnds.length && series.isEmpty();
        }

        @Override
        public boolean writesWhileProcessing() {
            return true;
        }
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

    private Object2LongHashMap<Object> spareMap() {
        return spareMaps.isEmpty() ? new Object2LongHashMap<>(ABSENT) : spareMaps.pop();
    }

    private Object2LongHashMap<Object> copyOf(Object2LongHashMap<Object> frame) {
        Object2LongHashMap<Object> copy = spareMap();
        frame.forEachLong(copy::put);
        return copy;
    }

    private void recycle(Object2LongHashMap<Object> frame) {
        frame.clear();
        spareMaps.push(frame);
    }

    private long oldestFrameEnd() {
        long oldest = Long.MAX_VALUE;
        for (Long2ObjectHashMap<Object2LongHashMap<Object>>.KeyIterator it = frames.keySet().iterator(); it.hasNext(); ) {
            oldest = Math.min(oldest, it.nextLong());
        }
        return oldest;
    }
}
