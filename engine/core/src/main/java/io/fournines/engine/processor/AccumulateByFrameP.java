package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.WindowDefinition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * First stage of a windowed aggregation, running next to the source on every core: folds items into
 * one accumulator per (frame, key). When the watermark passes a frame's end, each of its
 * accumulators goes out as a {@link KeyedFrame} to the instance that owns the key, so only partial
 * results cross the partitioned edge.
 */
public final class AccumulateByFrameP extends AbstractProcessor {

    private final Function<Object, ?> keyFn;
    private final ToLongFunction<Object> timestampFn;
    private final WindowDefinition window;
    private final AggregateOperation<?, ?, ?> operation;
    private final TreeMap<Long, Map<Object, Object>> frames = new TreeMap<>();

    // Most items land in the newest frame: remembering it avoids a boxed lookup per item.
    private long currentFrameEnd = Long.MIN_VALUE;
    private Map<Object, Object> currentFrame;
    private long flushedUpTo = Long.MIN_VALUE;
    private long lateItems;
    private Traverser<Object> flushing;

    @SuppressWarnings("unchecked")
    public AccumulateByFrameP(Function<?, ?> keyFn, ToLongFunction<?> timestampFn, WindowDefinition window,
                              AggregateOperation<?, ?, ?> operation) {
        this.keyFn = (Function<Object, ?>) keyFn;
        this.timestampFn = (ToLongFunction<Object>) timestampFn;
        this.window = window;
        this.operation = operation;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        long frameEnd = window.frameEnd(timestampFn.applyAsLong(item));
        if (frameEnd <= flushedUpTo) {
            lateItems++;
            return true;
        }
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.computeIfAbsent(frameEnd, f -> new HashMap<>());
            currentFrameEnd = frameEnd;
        }
        Object key = keyFn.apply(item);
        Object acc = currentFrame.get(key);
        if (acc == null) {
            acc = operation.createFn().get();
            currentFrame.put(key, acc);
        }
        operation.accumulate(acc, item);
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        if (flushing == null) {
            flushing = Traversers.concat(flushFramesUpTo(watermark.timestamp()), Traversers.singleton(watermark));
        }
        if (!emitFromTraverser(flushing)) {
            return false;
        }
        flushing = null;
        return true;
    }

    @Override
    public boolean complete() {
        if (flushing == null) {
            flushing = flushFramesUpTo(Long.MAX_VALUE);
        }
        return emitFromTraverser(flushing);
    }

    /** Takes the frames ending at or before {@code upTo} out of the state, as a traverser of partials. */
    private Traverser<Object> flushFramesUpTo(long upTo) {
        NavigableMap<Long, Map<Object, Object>> done = frames.headMap(upTo, true);
        List<Map.Entry<Long, Map<Object, Object>>> closed = new ArrayList<>(done.entrySet());
        done.clear();
        // Every frame ending at or before the watermark is closed, even one that was empty.
        flushedUpTo = Math.max(flushedUpTo, upTo);
        if (currentFrameEnd <= upTo) {
            currentFrameEnd = Long.MIN_VALUE;
            currentFrame = null;
        }
        return Traversers.traverseIterable(closed).flatMap(frame -> Traversers.traverseIterable(frame.getValue().entrySet())
                .map(e -> new KeyedFrame(frame.getKey(), e.getKey(), e.getValue())));
    }

    /** Items that arrived after their frame was sent on, and were therefore dropped. */
    public long lateItems() {
        return lateItems;
    }
}
