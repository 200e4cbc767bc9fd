package io.fournines.engine.processor;

import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.core.Processor;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Window state for sums of longs (counting, summing): each frame is an open-addressing map from key
 * to a primitive long, and so is the running window sum. Evicted frame maps are cleared and reused,
 * so in steady state this state allocates nothing and holds no object per key and frame. Under long
 * keys ({@link LongKeyed}) the maps hold no object at all, which a concurrent GC cycle then need not
 * mark: a 10 s window sliding by 10 ms over 10 000 keys holds millions of (frame, key) sums.
 *
 * <p>A snapshot is saved copy-on-write: {@link #save} only notes which map holds each frame; the
 * frames are written afterwards, newest first, a few thousand partials a call, while windows go on
 * being computed. Until a frame is written its map is neither changed (a partial for it goes into a
 * copy) nor reused once evicted.
 *
 * @param <M> the map from key to sum
 */
abstract class LongSumFrames<M> implements WindowFrames {

    /** Marks "no entry" inside the maps; a real sum of Long.MIN_VALUE cannot be stored. */
    static final long ABSENT = Long.MIN_VALUE;
    private static final String SNAPSHOT_ID = "long-sum-frames";
    /** Partials a save writes per call: tens of microseconds of work between two windows' computations. */
    static final int PARTIALS_PER_CALL = 4096;

    private final Long2ObjectHashMap<M> frames = new Long2ObjectHashMap<>();
    final M running = newMap();
    private final ArrayDeque<M> spareMaps = new ArrayDeque<>();
    /** Hands each key's window sum out as an accumulator without making one per key. */
    final LongAccumulator scratch = new LongAccumulator();
    private long firstFrameEnd = Long.MAX_VALUE;
    private long currentFrameEnd = Long.MIN_VALUE;
    private M currentFrame;
    /** The maps a snapshot being saved still has to write, by frame end. */
    private final Long2ObjectHashMap<M> unwritten = new Long2ObjectHashMap<>();

    abstract M newMap();

    abstract int size(M map);

    abstract void clear(M map);

    /** Adds {@code value} to the sum of {@code key} (as a partial or a snapshot holds it). */
    abstract void addSum(M map, Object key, long value);

    /** Adds every sum of {@code from} into {@code into}. */
    abstract void addAll(M from, M into);

    /** Deducts every sum of {@code from} from {@code into}, dropping a key whose sum is back to zero. */
    abstract void deductAll(M from, M into);

    /** Hands each key's sum of {@code window} to {@code out}. */
    abstract void emit(M window, AccumulatorSink out);

    /** Adds each (frame, key, sum) of {@code frame} to the snapshot's {@code series}. */
    abstract void write(long frameEnd, M frame, PartitionedSeries series);

    @Override
    public void add(long frameEnd, Object key, Object accumulator) {
        addSum(frameEnd, key, ((LongAccumulator) accumulator).get());
    }

    private void addSum(long frameEnd, Object key, long value) {
        addSum(frame(frameEnd), key, value);
    }

    /** The map to add a partial of the frame ending at {@code frameEnd} to: a copy of one a snapshot still has to write. */
    final M frame(long frameEnd) {
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
        return currentFrame;
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
        return size(running) == 0;
    }

    @Override
    public void emitAndSlide(long start, long end, long slide, AccumulatorSink out) {
        slideIn(end);
        emit(running, out);
        slideOut(start + slide);
    }

    /** Sums the frame ending at {@code end}, the newest of the window ending there, into the running window. */
    final void slideIn(long end) {
        M newest = frames.get(end);
        if (newest != null) {
            addAll(newest, running);
        }
    }

    /** Evicts the frame ending at {@code leavingEnd}, the oldest, which no later window contains. */
    final void slideOut(long leavingEnd) {
        M leaving = frames.remove(leavingEnd);
        if (leaving == null) {
            return;
        }
        deductAll(leaving, running);
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
        for (Long2ObjectHashMap<M>.KeyIterator it = frames.keySet().iterator(); it.hasNext(); ) {
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
                    M frame = unwritten.remove(end);
                    write(end, frame, series);
                    partials += size(frame);
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
                addAll(frame, running);
            }
        });
    }

    private M spareMap() {
        return spareMaps.isEmpty() ? newMap() : spareMaps.pop();
    }

    private M copyOf(M frame) {
        M copy = spareMap();
        addAll(frame, copy);
        return copy;
    }

    private void recycle(M frame) {
        clear(frame);
        spareMaps.push(frame);
    }

    private long oldestFrameEnd() {
        long oldest = Long.MAX_VALUE;
        for (Long2ObjectHashMap<M>.KeyIterator it = frames.keySet().iterator(); it.hasNext(); ) {
            oldest = Math.min(oldest, it.nextLong());
        }
        return oldest;
    }

    /** Sums under any keys, each key kept as the object its partial brought. */
    static final class ObjectKeyed extends LongSumFrames<Object2LongHashMap<Object>> {
        @Override
        Object2LongHashMap<Object> newMap() {
            return new Object2LongHashMap<>(ABSENT);
        }

        @Override
        int size(Object2LongHashMap<Object> map) {
            return map.size();
        }

        @Override
        void clear(Object2LongHashMap<Object> map) {
            map.clear();
        }

        @Override
        void addSum(Object2LongHashMap<Object> map, Object key, long value) {
            map.put(key, map.getOrDefault(key, 0) + value);
        }

        @Override
        void addAll(Object2LongHashMap<Object> from, Object2LongHashMap<Object> into) {
            from.forEachLong((key, value) -> addSum(into, key, value));
        }

        @Override
        void deductAll(Object2LongHashMap<Object> from, Object2LongHashMap<Object> into) {
            from.forEachLong((key, value) -> {
                long remaining = into.getValue(key) - value;
                // A key whose window sum is back to zero is dropped, as ObjectFrames drops an empty accumulator.
                if (remaining == 0) {
                    into.removeKey(key);
                } else {
                    into.put(key, remaining);
                }
            });
        }

        @Override
        void emit(Object2LongHashMap<Object> window, AccumulatorSink out) {
            window.forEachLong((key, value) -> {
                scratch.set(value);
                out.accept(key, scratch);
            });
        }

        @Override
        void write(long frameEnd, Object2LongHashMap<Object> frame, PartitionedSeries series) {
            frame.forEachLong((key, sum) -> series.add(frameEnd, key, sum));
        }
    }

    /**
     * Sums under long keys, unboxed as their partials arrive (or never boxed, as {@link
     * io.fournines.engine.window.LongKeyedSum}s). {@link #emitSumsAndSlide} hands a window's sums out
     * without boxing a key; {@link #emitAndSlide} boxes each.
     */
    static final class LongKeyed extends LongSumFrames<Long2LongHashMap> {
        @Override
        Long2LongHashMap newMap() {
            return new Long2LongHashMap(ABSENT);
        }

        @Override
        int size(Long2LongHashMap map) {
            return map.size();
        }

        @Override
        void clear(Long2LongHashMap map) {
            map.clear();
        }

        @Override
        void addSum(Long2LongHashMap map, Object key, long value) {
            addTo(map, (Long) key, value);
        }

        /** Merges a partial as a {@link io.fournines.engine.window.LongKeyedSum} brings it. */
        void addSum(long frameEnd, long key, long value) {
            addTo(frame(frameEnd), key, value);
        }

        private static void addTo(Long2LongHashMap map, long key, long value) {
            map.put(key, map.getOrDefault(key, 0) + value);
        }

        @Override
        void addAll(Long2LongHashMap from, Long2LongHashMap into) {
            from.forEachLong((key, value) -> addTo(into, key, value));
        }

        @Override
        void deductAll(Long2LongHashMap from, Long2LongHashMap into) {
            from.forEachLong((key, value) -> {
                long remaining = into.get(key) - value;
                if (remaining == 0) {
                    into.remove(key);
                } else {
                    into.put(key, remaining);
                }
            });
        }

        @Override
        void emit(Long2LongHashMap window, AccumulatorSink out) {
            window.forEachLong((key, value) -> {
                scratch.set(value);
                out.accept(key, scratch);
            });
        }

        @Override
        void write(long frameEnd, Long2LongHashMap frame, PartitionedSeries series) {
            frame.forEachLong((key, sum) -> series.addLongKey(frameEnd, key, sum));
        }

        /** As {@link #emitAndSlide}, each key's sum handed out as two longs. */
        void emitSumsAndSlide(long start, long end, long slide, LongSumSink out) {
            slideIn(end);
            running.forEachLong(out::accept);
            slideOut(start + slide);
        }
    }

    /** Takes one key's sum of a window. */
    @FunctionalInterface
    interface LongSumSink {
        void accept(long key, long sum);
    }
}
