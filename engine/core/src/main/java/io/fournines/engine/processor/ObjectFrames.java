package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;

import io.fournines.engine.core.Processor;
import io.fournines.engine.window.KeyedFrame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Window state for any aggregate operation. If it can deduct, a running accumulator per key slides
 * along: the newest frame is combined in, the oldest deducted; otherwise each window is recombined
 * from its frames.
 */
final class ObjectFrames implements WindowFrames {

    private final AggregateOperation<?, ?, ?> operation;
    private final TreeMap<Long, Map<Object, Object>> frames = new TreeMap<>();
    private final Map<Object, Object> running = new HashMap<>();
    private final Object emptyAccumulator;
    // Partials arrive frame by frame: remembering the last frame avoids a boxed lookup per partial.
    private long currentFrameEnd = Long.MIN_VALUE;
    private Map<Object, Object> currentFrame;

    ObjectFrames(AggregateOperation<?, ?, ?> operation) {
        this.operation = operation;
        this.emptyAccumulator = operation.createFn().get();
    }

    @Override
    public void add(long frameEnd, Object key, Object accumulator) {
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.computeIfAbsent(frameEnd, f -> new HashMap<>());
            currentFrameEnd = frameEnd;
        }
        Object acc = currentFrame.putIfAbsent(key, accumulator);
        if (acc != null) {
            operation.combine(acc, accumulator);
        }
    }

    @Override
    public boolean hasFrames() {
        return !frames.isEmpty();
    }

    @Override
    public long firstFrameEnd() {
        return frames.firstKey();
    }

    @Override
    public boolean windowIsEmpty() {
        return !operation.canDeduct() || running.isEmpty();
    }

    /** Per key: its partials as {@link KeyedFrame}s, written at once (they hold the live accumulators). */
    @Override
    public FramesSave save(Processor.Context context) {
        Map<Object, ArrayList<KeyedFrame>> byKey = new HashMap<>();
        frames.forEach((frameEnd, frame) -> frame.forEach((key, acc) ->
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new KeyedFrame(frameEnd, key, acc))));
        PendingItems entries = new PendingItems();
        byKey.forEach((key, partials) -> entries.add(Map.entry(key, partials)));
        return FramesSave.atOnce(entries);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void restore(Object key, Object value) {
        for (KeyedFrame partial : (List<KeyedFrame>) value) {
            add(partial.frameEnd(), key, partial.accumulator());
        }
    }

    /** A sliding running accumulator holds the frames up to the last emitted window; recombined windows keep nothing. */
    @Override
    public void resumeAfter(long emittedUpTo) {
        if (!operation.canDeduct()) {
            return;
        }
        frames.headMap(emittedUpTo, true).values().forEach(frame -> frame.forEach((key, acc) ->
                operation.combine(running.computeIfAbsent(key, k -> operation.createFn().get()), acc)));
    }

    @Override
    public void emitAndSlide(long start, long end, long slide, AccumulatorSink out) {
        Map<Object, Object> accumulators;
        if (operation.canDeduct()) {
            Map<Object, Object> newest = frames.get(end);
            if (newest != null) {
                newest.forEach((key, acc) -> operation.combine(running.computeIfAbsent(key, k -> operation.createFn().get()), acc));
            }
            accumulators = running;
        } else {
            accumulators = new HashMap<>();
            for (Map<Object, Object> frame : frames.subMap(start, false, end, true).values()) {
                Map<Object, Object> merged = accumulators;
                frame.forEach((key, acc) -> operation.combine(merged.computeIfAbsent(key, k -> operation.createFn().get()), acc));
            }
        }
        accumulators.forEach(out::accept);
        Map<Object, Object> leaving = frames.remove(start + slide);
        if (leaving == currentFrame) {
            currentFrame = null;
            currentFrameEnd = Long.MIN_VALUE;
        }
        if (leaving != null && operation.canDeduct()) {
            leaving.forEach((key, acc) -> {
                Object runningAcc = running.get(key);
                operation.deduct(runningAcc, acc);
                if (runningAcc.equals(emptyAccumulator)) {
                    running.remove(key);
                }
            });
        }
    }
}
