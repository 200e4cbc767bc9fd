package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.LongKeyedSum;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The open frames of {@link AccumulateByFrameP}: one accumulator per (frame, key), folded from raw
 * items, taken out as {@link KeyedFrame} partials once the watermark closes the frame. Sums of
 * longs are kept in reused primitive maps, so accumulating an item allocates nothing (nor boxes its
 * key, when the key is a {@link LongKeyFn}: then a partial goes out as one {@link LongKeyedSum}).
 */
abstract class FrameAccumulators<M> {

    protected final AggregateOperation<?, ?, ?> operation;
    protected final Function<Object, ?> keyFn;
    private final TreeMap<Long, M> frames = new TreeMap<>();
    // Most items land in the newest frame: remembering it avoids a boxed lookup per item.
    private long currentFrameEnd = Long.MIN_VALUE;
    private M currentFrame;

    @SuppressWarnings("unchecked")
    FrameAccumulators(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
        this.operation = operation;
        this.keyFn = (Function<Object, ?>) keyFn;
    }

    static FrameAccumulators<?> forOperation(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
        if (longKeyedSums(operation, keyFn)) {
            return new LongKeyedSums(operation, keyFn);
        }
        return operation.isSumOfLongs() ? new LongSums(operation, keyFn) : new Objects(operation, keyFn);
    }

    /**
     * Whether {@link #forOperation} makes {@link LongKeyedSums}: frames that keep nothing of an item
     * once folded (an object key may be the item or part of it) and send {@link LongKeyedSum} partials.
     */
    static boolean longKeyedSums(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
        return operation.isSumOfLongs() && keyFn instanceof LongKeyFn<?>;
    }

    /** Folds {@code item} into the accumulator of its key in the frame ending at {@code frameEnd}. */
    final void accumulate(long frameEnd, Object item) {
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.get(frameEnd);
            if (currentFrame == null) {
                currentFrame = newFrame();
                frames.put(frameEnd, currentFrame);
            }
            currentFrameEnd = frameEnd;
        }
        accumulate(currentFrame, item);
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

    abstract void accumulate(M frame, Object item);

    /** Appends the frame's partials to {@code out}; the frame is not used again. */
    private void drainInto(long frameEnd, M frame, List<Object> out) {
        sendPartials(frameEnd, frame, out::add);
        recycle(frame);
    }

    /** Hands the frame's partials, as they go downstream, to {@code out}: by default as a snapshot holds them. */
    void sendPartials(long frameEnd, M frame, Consumer<Object> out) {
        forEachPartial(frameEnd, frame, out::accept);
    }

    /** A drained frame, for {@link #newFrame} to hand out again; dropped by default. */
    void recycle(M frame) {
    }

    /** Any operation: an accumulator object per key, handed downstream as it is. */
    static final class Objects extends FrameAccumulators<Map<Object, Object>> {
        Objects(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
            super(operation, keyFn);
        }

        @Override
        Map<Object, Object> newFrame() {
            return new HashMap<>();
        }

        @Override
        void accumulate(Map<Object, Object> frame, Object item) {
            Object key = keyFn.apply(item);
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
    }

    /** Sums of longs: a primitive map per frame, recycled once drained. */
    static final class LongSums extends FrameAccumulators<Object2LongHashMap<Object>> {
        private final ToLongFunction<Object> valueFn;
        private final ArrayDeque<Object2LongHashMap<Object>> spare = new ArrayDeque<>();

        @SuppressWarnings("unchecked")
        LongSums(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
            super(operation, keyFn);
            this.valueFn = (ToLongFunction<Object>) operation.sumOfLongsFn();
        }

        @Override
        Object2LongHashMap<Object> newFrame() {
            return spare.isEmpty() ? new Object2LongHashMap<>(Long.MIN_VALUE) : spare.pop();
        }

        @Override
        void accumulate(Object2LongHashMap<Object> frame, Object item) {
            Object key = keyFn.apply(item);
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
        void recycle(Object2LongHashMap<Object> frame) {
            frame.clear();
            spare.push(frame);
        }
    }

    /** Sums of longs under long keys: as {@link LongSums}, the key never boxed (but in a snapshot), each partial one object. */
    static final class LongKeyedSums extends FrameAccumulators<Long2LongHashMap> {
        private final LongKeyFn<Object> longKeyFn;
        private final ToLongFunction<Object> valueFn;
        private final ArrayDeque<Long2LongHashMap> spare = new ArrayDeque<>();

        @SuppressWarnings("unchecked")
        LongKeyedSums(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
            super(operation, keyFn);
            this.longKeyFn = (LongKeyFn<Object>) keyFn;
            this.valueFn = (ToLongFunction<Object>) operation.sumOfLongsFn();
        }

        @Override
        Long2LongHashMap newFrame() {
            return spare.isEmpty() ? new Long2LongHashMap(Long.MIN_VALUE) : spare.pop();
        }

        @Override
        void accumulate(Long2LongHashMap frame, Object item) {
            long key = longKeyFn.applyAsLong(item);
            frame.put(key, frame.getOrDefault(key, 0) + valueFn.applyAsLong(item));
        }

        @Override
        void forEachPartial(long frameEnd, Long2LongHashMap frame, Consumer<KeyedFrame> out) {
            frame.forEachLong((key, sum) -> out.accept(new KeyedFrame(frameEnd, key, new LongAccumulator(sum))));
        }

        @Override
        void sendPartials(long frameEnd, Long2LongHashMap frame, Consumer<Object> out) {
            frame.forEachLong((key, sum) -> out.accept(new LongKeyedSum(frameEnd, key, sum)));
        }

        @Override
        void restore(Long2LongHashMap frame, Object key, Object accumulator) {
            long k = (Long) key;
            frame.put(k, frame.getOrDefault(k, 0) + ((LongAccumulator) accumulator).get());
        }

        @Override
        void recycle(Long2LongHashMap frame) {
            frame.clear();
            spare.push(frame);
        }
    }
}
