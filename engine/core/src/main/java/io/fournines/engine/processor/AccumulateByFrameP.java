package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.WindowDefinition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * First stage of a windowed aggregation, running next to the source on every core: folds items into
 * one accumulator per (frame, key). When the watermark passes a frame's end, each of its
 * accumulators goes out as a {@link KeyedFrame} (sums under long keys: a
 * {@link io.fournines.engine.window.LongKeyedSum}) to the instance that owns the key, so only partial
 * results cross the partitioned edge. Items behind the watermark, whose frame was already sent on,
 * are dropped and counted as {@code lateItems}. When its input goes idle it sends every open
 * accumulator at once: the other instances' watermarks close windows without waiting for an idle one,
 * so partials held back for a watermark that is not coming would be left out of them.
 */
public final class AccumulateByFrameP extends AbstractProcessor {

    private static final String FLUSHED_UP_TO = "frames-flushed-up-to";

    private final ToLongFunction<Object> timestampFn;
    private final WindowDefinition window;
    private final FrameAccumulators<?> frames;
    /** Partials and the watermark still to emit, reused from flush to flush. */
    private final PendingItems pendingOutput = new PendingItems();
    private long flushedUpTo = Long.MIN_VALUE;
    /** Whether a flush progress saved with another number of instances was restored (the least one is kept). */
    private boolean restoredRescaled;
    private Counter lateItems;
    private Context context;

    @SuppressWarnings("unchecked")
    public AccumulateByFrameP(Function<?, ?> keyFn, ToLongFunction<?> timestampFn, WindowDefinition window,
                              AggregateOperation<?, ?, ?> operation) {
        this.timestampFn = (ToLongFunction<Object>) timestampFn;
        this.window = window;
        this.frames = FrameAccumulators.forOperation(operation, keyFn);
    }

    /**
     * Whether the stage made with these sums under long keys: it keeps nothing of an item once it has
     * folded it in (so its items may be reused), and sends {@link io.fournines.engine.window.LongKeyedSum}
     * partials, not {@link KeyedFrame}s.
     */
    public static boolean sumsUnderLongKeys(AggregateOperation<?, ?, ?> operation, Function<?, ?> keyFn) {
        return FrameAccumulators.longKeyedSums(operation, keyFn);
    }

    @Override
    protected void init(Context context) {
        this.context = context;
        lateItems = context.counter("lateItems");
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        long frameEnd = window.frameEnd(timestampFn.applyAsLong(item));
        if (frameEnd <= flushedUpTo) {
            lateItems.increment();
            return true;
        }
        frames.accumulate(frameEnd, item);
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        if (pendingOutput.isEmpty()) {
            flushUpTo(watermark.timestamp());
            pendingOutput.add(watermark);
        }
        return pendingOutput.emit(this::tryEmit);
    }

    /**
     * Sends the open partials without moving the flush progress: records of those frames may still
     * come if the input wakes up, and go out as further partials, which the second stage merges.
     * An instance restored with another's partials and reading nothing now needs this too.
     */
    @Override
    public boolean tryProcessIdle() {
        if (pendingOutput.isEmpty()) {
            frames.takeFramesUpTo(Long.MAX_VALUE, pendingOutput);
        }
        return pendingOutput.emit(this::tryEmit);
    }

    @Override
    public boolean complete() {
        if (pendingOutput.isEmpty()) {
            flushUpTo(Long.MAX_VALUE);
        }
        return pendingOutput.emit(this::tryEmit);
    }

    /**
     * Each open accumulator under its key, so it goes to the key's owner on restore, and this
     * instance's flush progress. Partials taken out of the frames but not sent yet go out first:
     * the state saved no longer holds them, so they must be ahead of the barrier.
     */
    @Override
    public boolean saveToSnapshot() {
        if (!pendingOutput.emit(this::tryEmit)) {
            return false;
        }
        return emitToSnapshot(() -> {
            List<Map.Entry<Object, Object>> entries = new ArrayList<>();
            entries.add(Map.entry(InstanceStateKey.of(FLUSHED_UP_TO, context), flushedUpTo));
            frames.forEachPartial(partial -> entries.add(Map.entry(partial.key(), partial)));
            return entries;
        });
    }

    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        if (value instanceof KeyedFrame partial) {
            frames.restore(partial);
        } else if (InstanceStateKey.isOwn(key, FLUSHED_UP_TO, context)) {
            flushedUpTo = (Long) value;
        } else if (InstanceStateKey.isRescaled(key, FLUSHED_UP_TO, context)) {
            // The least flush progress saved: no partial frame is lost, and a flushed one is not restored anyway.
            flushedUpTo = restoredRescaled ? Math.min(flushedUpTo, (Long) value) : (Long) value;
            restoredRescaled = true;
        }
    }

    /** Whether a snapshot entry is one this stage saves (a frame's partial or a flush progress), whichever instance saved it. */
    static boolean holds(Object key, Object value) {
        return value instanceof KeyedFrame || InstanceStateKey.names(key, FLUSHED_UP_TO);
    }

    private void flushUpTo(long upTo) {
        frames.takeFramesUpTo(upTo, pendingOutput);
        // Every frame ending at or before the watermark is closed, even one that was empty.
        flushedUpTo = Math.max(flushedUpTo, upTo);
    }
}
