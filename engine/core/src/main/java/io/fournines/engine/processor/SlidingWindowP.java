package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.GlobalKey;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.LongKeyedSum;
import io.fournines.engine.window.WindowDefinition;


/**
 * Second stage of a windowed aggregation: merges the partial frames of the keys this instance owns
 * and, when the watermark passes a window's end, emits one result per key that had items in the
 * window (a {@link io.fournines.engine.window.KeyedWindowResult} in keyed pipelines). Windows that
 * hold no item are skipped. How frames are kept and combined is {@link WindowFrames}' business.
 * Partials for a window already emitted are dropped and counted as {@code lateFrames}.
 *
 * <p>{@link #overKeys Over keys}, a window's long keys and sums are instead folded into one
 * accumulator of an {@link OverKeysOperation}, emitted as a {@link KeyedFrame} ending at the window's
 * end under the {@link GlobalKey}: the partial that a global tumbling window one slide long combines
 * across instances. One object per window and instance, none per key.
 */
public final class SlidingWindowP extends AbstractProcessor {

    private static final String PROGRESS = "window-progress";

    /** Makes the emitted item for one key of one window. */
    @FunctionalInterface
    public interface WindowResultFn {
        Object apply(long start, long end, Object key, Object result);
    }

    private final WindowDefinition window;
    private final AggregateOperation<?, ?, ?> operation;
    /** Per-key output; null when the keys go to {@link #overKeysOperation}. */
    private final WindowResultFn outputFn;
    private final OverKeysOperation<?, ?> overKeysOperation;
    private final WindowFrames frames;
    /** The frames under long keys ({@link #underLongKeys}, {@link #overKeys}), which take {@link LongKeyedSum}s; null otherwise. */
    private final LongSumFrames.LongKeyed keySums;
    private final PendingItems pendingOutput = new PendingItems();
    /** The frames of the snapshot being saved, until all are written. */
    private FramesSave framesSave;

    /** End of the next window to emit; MIN_VALUE until there is a frame to start from. */
    private long nextWindowEnd = Long.MIN_VALUE;
    private long emittedUpTo = Long.MIN_VALUE;
    /** Whether a progress saved with another number of instances was restored (the least one is kept). */
    private boolean restoredRescaled;
    private Counter lateFrames;
    private Context context;

    public SlidingWindowP(WindowDefinition window, AggregateOperation<?, ?, ?> operation, WindowResultFn outputFn) {
        this(window, operation, outputFn, null, null);
    }

    private SlidingWindowP(WindowDefinition window, AggregateOperation<?, ?, ?> operation, WindowResultFn outputFn,
                           OverKeysOperation<?, ?> overKeysOperation, LongSumFrames.LongKeyed keySums) {
        this.window = window;
        this.operation = operation;
        this.outputFn = outputFn;
        this.overKeysOperation = overKeysOperation;
        this.keySums = keySums;
        this.frames = keySums != null ? keySums : WindowFrames.forOperation(operation);
    }

    /**
     * Sums of longs by long keys, from {@link LongKeyedSum} partials (or {@link KeyedFrame}s under
     * {@code Long} keys), kept unboxed; each key's sum is boxed only as it goes out.
     */
    public static SlidingWindowP underLongKeys(WindowDefinition window, AggregateOperation<?, LongAccumulator, Long> sumOfLongs,
                                               WindowResultFn outputFn) {
        return new SlidingWindowP(window, sumsOfLongs(sumOfLongs), outputFn, null, new LongSumFrames.LongKeyed());
    }

    /** Sums of longs by long keys, as {@link #underLongKeys}, each window's keys folded by {@code overKeys} into one partial. */
    public static SlidingWindowP overKeys(WindowDefinition window, AggregateOperation<?, LongAccumulator, Long> sumOfLongs,
                                          OverKeysOperation<?, ?> overKeys) {
        return new SlidingWindowP(window, sumsOfLongs(sumOfLongs), null, overKeys, new LongSumFrames.LongKeyed());
    }

    private static AggregateOperation<?, LongAccumulator, Long> sumsOfLongs(AggregateOperation<?, LongAccumulator, Long> operation) {
        if (!operation.isSumOfLongs()) {
            throw new IllegalArgumentException("a window under long keys takes the keys' sums of longs");
        }
        return operation;
    }

    @Override
    protected void init(Context context) {
        this.context = context;
        lateFrames = context.counter("lateFrames");
    }

    /**
     * This instance's progress through the windows, and the frames: taken now, written now or (sums
     * of longs, copy-on-write) in {@link #continueSnapshotSave()} while windows go on. Windows computed
     * but not sent yet (complete() flushes the last ones over many calls) go out first: the progress
     * saved counts them as emitted, so they must be ahead of the barrier.
     */
    @Override
    public boolean saveToSnapshot() {
        if (!pendingOutput.emit(this::tryEmit)) {
            return false;
        }
        if (framesSave == null) {
            if (!tryEmitToSnapshot(InstanceStateKey.of(PROGRESS, context), new long[] {nextWindowEnd, emittedUpTo, doneUpTo()})) {
                return false;
            }
            framesSave = frames.save(context);
        }
        return framesSave.writesWhileProcessing() || framesSave.writeSome(this::tryEmitToSnapshot);
    }

    @Override
    public boolean continueSnapshotSave() {
        if (!framesSave.writeSome(this::tryEmitToSnapshot)) {
            return false;
        }
        framesSave = null;
        return true;
    }

    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        if (key instanceof BroadcastKey) {
            long[] progress = (long[]) value;
            if (InstanceStateKey.isOwn(key, PROGRESS, context)) {
                nextWindowEnd = progress[0];
                emittedUpTo = progress[1];
            } else if (InstanceStateKey.isRescaled(key, PROGRESS, context) && progress[2] != Long.MIN_VALUE) {
                // Any saved instance's keys may be this one's now: go on from the least progress of
                // those that had any (an idle instance, say all but one of a global aggregate's, has none).
                emittedUpTo = restoredRescaled ? Math.min(emittedUpTo, progress[2]) : progress[2];
                nextWindowEnd = emittedUpTo + window.slide();
                restoredRescaled = true;
            }
            return;
        }
        frames.restore(key, value);
    }

    /**
     * The end of the last window this instance has nothing left to emit for: the last it emitted, or
     * if none, the one before its oldest frame; MIN_VALUE when it holds nothing and emitted nothing.
     * In an aligned snapshot every instance's is at or after the windows any other emitted.
     */
    private long doneUpTo() {
        if (emittedUpTo != Long.MIN_VALUE || !frames.hasFrames()) {
            return emittedUpTo;
        }
        return frames.firstFrameEnd() - window.slide();
    }

    /**
     * Restored with another number of instances, an instance takes the least progress of the saved
     * instances that had any ({@link #doneUpTo}): with unaligned (at-least-once) snapshots, windows
     * some instance had emitted may be emitted again.
     */
    @Override
    public boolean finishSnapshotRestore() {
        frames.resumeAfter(emittedUpTo);
        return true;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (item instanceof LongKeyedSum sum) {
            if (sum.frameEnd() <= emittedUpTo) {
                lateFrames.increment();
            } else {
                keySums.addSum(sum.frameEnd(), sum.key(), sum.sum());
            }
            return true;
        }
        KeyedFrame partial = (KeyedFrame) item;
        if (partial.frameEnd() <= emittedUpTo) {
            lateFrames.increment();
            return true;
        }
        frames.add(partial.frameEnd(), partial.key(), partial.accumulator());
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        if (pendingOutput.isEmpty()) {
            computeWindowsUpTo(watermark.timestamp());
            pendingOutput.add(watermark);
        }
        return pendingOutput.emit(this::tryEmit);
    }

    @Override
    public boolean complete() {
        if (pendingOutput.isEmpty()) {
            computeWindowsUpTo(Long.MAX_VALUE);
        }
        return pendingOutput.emit(this::tryEmit);
    }


    /** Appends to {@link #pendingOutput} the results of every window ending at or before {@code limit}. */
    private void computeWindowsUpTo(long limit) {
        while (true) {
            if (frames.windowIsEmpty()) {
                if (!frames.hasFrames()) {
                    nextWindowEnd = Long.MIN_VALUE;
                    return;
                }
                // No item between the last emitted window and the oldest frame: skip the empty windows.
                // From the last emitted window, not from an earlier skip: a frame may since have
                // arrived (on time) from a slower input, older than the frame skipped to then.
                nextWindowEnd = Math.max(emittedUpTo + window.slide(), frames.firstFrameEnd());
            }
            long end = nextWindowEnd;
            if (end > limit) {
                return;
            }
            long start = end - window.size();
            if (overKeysOperation == null) {
                frames.emitAndSlide(start, end, window.slide(),
                        (key, acc) -> pendingOutput.add(outputFn.apply(start, end, key, operation.finish(acc))));
            } else {
                Object partial = overKeysOperation.createFn().get();
                keySums.emitSumsAndSlide(start, end, window.slide(),
                        (key, sum) -> overKeysOperation.accumulate(partial, key, sum));
                pendingOutput.add(new KeyedFrame(end, GlobalKey.INSTANCE, partial));
            }
            emittedUpTo = end;
            nextWindowEnd = end + window.slide();
        }
    }
}
