package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.WindowDefinition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Second stage of a windowed aggregation: merges the partial frames of the keys this instance owns
 * and, when the watermark passes a window's end, emits one result per key that had items in the
 * window (a {@link io.fournines.engine.window.KeyedWindowResult} in keyed pipelines).
 *
 * <p>When the operation can deduct, a running accumulator per key slides along: the newest frame is
 * combined in and the oldest deducted, two operations per key per slide whatever the window length.
 * Otherwise every window is recombined from its frames. Windows that hold no item are skipped.
 */
public final class SlidingWindowP extends AbstractProcessor {

    /** Makes the emitted item for one key of one window. */
    @FunctionalInterface
    public interface WindowResultFn {
        Object apply(long start, long end, Object key, Object result);
    }

    private final WindowDefinition window;
    private final AggregateOperation<?, ?, ?> operation;
    private final WindowResultFn outputFn;
    private final TreeMap<Long, Map<Object, Object>> frames = new TreeMap<>();
    private final Map<Object, Object> running = new HashMap<>();
    private final Object emptyAccumulator;
    private final List<Object> pendingOutput = new ArrayList<>();

    private long currentFrameEnd = Long.MIN_VALUE;
    private Map<Object, Object> currentFrame;
    /** End of the next window to emit; MIN_VALUE until there is a frame to start from. */
    private long nextWindowEnd = Long.MIN_VALUE;
    private long emittedUpTo = Long.MIN_VALUE;
    private long lateFrames;
    private int pendingIndex;

    public SlidingWindowP(WindowDefinition window, AggregateOperation<?, ?, ?> operation, WindowResultFn outputFn) {
        this.window = window;
        this.operation = operation;
        this.outputFn = outputFn;
        this.emptyAccumulator = operation.createFn().get();
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        KeyedFrame partial = (KeyedFrame) item;
        long frameEnd = partial.frameEnd();
        if (frameEnd <= emittedUpTo) {
            lateFrames++;
            return true;
        }
        if (frameEnd != currentFrameEnd) {
            currentFrame = frames.computeIfAbsent(frameEnd, f -> new HashMap<>());
            currentFrameEnd = frameEnd;
        }
        Object acc = currentFrame.putIfAbsent(partial.key(), partial.accumulator());
        if (acc != null) {
            operation.combine(acc, partial.accumulator());
        }
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        if (pendingOutput.isEmpty()) {
            computeWindowsUpTo(watermark.timestamp());
            pendingOutput.add(watermark);
        }
        return emitPending();
    }

    @Override
    public boolean complete() {
        if (pendingOutput.isEmpty()) {
            computeWindowsUpTo(Long.MAX_VALUE);
        }
        return emitPending();
    }

    private boolean emitPending() {
        for (; pendingIndex < pendingOutput.size(); pendingIndex++) {
            if (!tryEmit(pendingOutput.get(pendingIndex))) {
                return false;
            }
        }
        pendingOutput.clear();
        pendingIndex = 0;
        return true;
    }

    /** Appends to {@link #pendingOutput} the results of every window ending at or before {@code limit}. */
    private void computeWindowsUpTo(long limit) {
        while (true) {
            boolean windowEmpty = !operation.canDeduct() || running.isEmpty();
            if (windowEmpty) {
                if (frames.isEmpty()) {
                    nextWindowEnd = Long.MIN_VALUE;
                    return;
                }
                // No item between here and the oldest frame: skip the empty windows.
                nextWindowEnd = Math.max(nextWindowEnd, frames.firstKey());
            }
            long end = nextWindowEnd;
            if (end > limit) {
                return;
            }
            emitWindow(end);
            emittedUpTo = end;
            nextWindowEnd = end + window.slide();
        }
    }

    private void emitWindow(long end) {
        long start = end - window.size();
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
        accumulators.forEach((key, acc) -> pendingOutput.add(outputFn.apply(start, end, key, operation.finish(acc))));
        // The oldest frame of this window is in no later window.
        Map<Object, Object> leaving = frames.remove(start + window.slide());
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

    /** Partial frames that arrived after their first window was emitted, and were dropped. */
    public long lateFrames() {
        return lateFrames;
    }
}
