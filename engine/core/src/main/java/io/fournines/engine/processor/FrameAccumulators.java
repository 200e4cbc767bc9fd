package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.window.KeyedFrame;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The open frames of {@link AccumulateByFrameP}: one accumulator per (frame, key), folded from raw
 * items, taken out as {@link KeyedFrame} partials once the watermark closes the frame. Sums of
 * longs are kept in reused primitive maps, so accumulating an item allocates nothing.
 */
abstract class FrameAccumulators<M> {

    protected final AggregateOperation<?, ?, ?> operation;
    private final TreeMap<Long, M> frames = new TreeMap<>();
    // Most items land in the newest frame: remembering it avoids a boxed lookup per item.
    private long currentFrameEnd = Long.MIN_VALUE;
    private M currentFrame;

    FrameAccumulators(AggregateOperation<?, ?, ?> operation) {
        this.operation = operation;
    }

    static FrameAccumulators<?> forOperation(AggregateOperation<?, ?, ?> operation) {
        return operation.isSumOfLongs() ? new LongSums(operation) : new Objects(operation);
    }

    final void accumulate(long frameEnd, Object key, Object item) {
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.get(frameEnd);
            if (currentFrame == null) {
                currentFrame = newFrame();
                frames.put(frameEnd, currentFrame);
            }
            currentFrameEnd = frameEnd;
        }
        accumulate(currentFrame, key, item);
    }

    /** Removes the frames ending at or before {@code upTo} and appends their partials to {@code out}, oldest frame first. */
    final void takeFramesUpTo(long upTo, List<Object> out) {
        Map<Long, M> closed = frames.headMap(upTo, true);
        closed.forEach((frameEnd, frame) -> drainInto(frameEnd, frame, out));
        closed.clear();
        if (currentFrameEnd <= upTo) {
            currentFrameEnd = Long.MIN_VALUE;
            currentFrame = null;
        }
    }

    /** Hands every open (frame, key) accumulator to {@code out}, as a snapshot saves them. */
    final void forEachPartial(Consumer<KeyedFrame> out) {
        frames.forEach((frameEnd, frame) -> forEachPartial(frameEnd, frame, out));
    }

    /** Merges a saved accumulator back into its (frame, key). */
    final void restore(KeyedFrame partial) {
        M frame = frames.computeIfAbsent(partial.frameEnd(), f -> newFrame());
        restore(frame, partial.key(), partial.accumulator());
    }

    abstract M newFrame();

    abstract void forEachPartial(long frameEnd, M frame, Consumer<KeyedFrame> out);

    abstract void restore(M frame, Object key, Object accumulator);

    abstract void accumulate(M frame, Object key, Object item);

    /** Appends the frame's partials to {@code out}; the frame is not used again. */
    abstract void drainInto(long frameEnd, M frame, List<Object> out);

    /** Any operation: an accumulator object per key, handed downstream as it is. */
    static final class Objects extends FrameAccumulators<Map<Object, Object>> {
        Objects(AggregateOperation<?, ?, ?> operation) {
            super(operation);
        }

        @Override
        Map<Object, Object> newFrame() {
            return new HashMap<>();
        }

        @Override
        void accumulate(Map<Object, Object> frame, Object key, Object item) {
            Object acc = frame.get(key);
            if (acc == null) {
                acc = operation.createFn().get();
                frame.put(key, acc);
            }
            operation.accumulate(acc, item);
        }

        @Override
        void forEachPartial(long frameEnd, Map<Object, Object> frame, Consumer<KeyedFrame> out) {
            frame.forEach((key, acc) -> out.accept(new KeyedFrame(frameEnd, key, acc)));
        }

        @Override
        void restore(Map<Object, Object> frame, Object key, Object accumulator) {
            Object acc = frame.putIfAbsent(key, accumulator);
            if (acc != null) {
                operation.combine(acc, accumulator);
            }
        }

        @Override
        void drainInto(long frameEnd, Map<Object, Object> frame, List<Object> out) {
            frame.forEach((key, acc) -> out.add(new KeyedFrame(frameEnd, key, acc)));
        }
    }

    /** Sums of longs: a primitive map per frame, recycled once drained. */
    static final class LongSums extends FrameAccumulators<Object2LongHashMap<Object>> {
        private final ToLongFunction<Object> valueFn;
        private final ArrayDeque<Object2LongHashMap<Object>> spare = new ArrayDeque<>();

        @SuppressWarnings("unchecked")
        LongSums(AggregateOperation<?, ?, ?> operation) {
            super(operation);
            this.valueFn = (ToLongFunction<Object>) operation.sumOfLongsFn();
        }

        @Override
        Object2LongHashMap<Object> newFrame() {
            return spare.isEmpty() ? new Object2LongHashMap<>(Long.MIN_VALUE) : spare.pop();
        }

        @Override
        void accumulate(Object2LongHashMap<Object> frame, Object key, Object item) {
            frame.put(key, frame.getOrDefault(key, 0) + valueFn.applyAsLong(item));
        }

        @Override
        void forEachPartial(long frameEnd, Object2LongHashMap<Object> frame, Consumer<KeyedFrame> out) {
            frame.forEachLong((key, sum) -> out.accept(new KeyedFrame(frameEnd, key, new LongAccumulator(sum))));
        }

        @Override
        void restore(Object2LongHashMap<Object> frame, Object key, Object accumulator) {
            frame.put(key, frame.getOrDefault(key, 0) + ((LongAccumulator) accumulator).get());
        }

        @Override
        void drainInto(long frameEnd, Object2LongHashMap<Object> frame, List<Object> out) {
            frame.forEachLong((key, sum) -> out.add(new KeyedFrame(frameEnd, key, new LongAccumulator(sum))));
            frame.clear();
            spare.push(frame);
        }
    }
}
