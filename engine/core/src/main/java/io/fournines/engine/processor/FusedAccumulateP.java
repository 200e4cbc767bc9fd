package io.fournines.engine.processor;

import io.fournines.engine.core.ControlItem;
import io.fournines.engine.core.Inbox;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.InboxImpl;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A source (with the stateless chain after it, {@link FusedOutputP}) and the first stage of a
 * windowed aggregation ({@link AccumulateByFrameP}) in one processor: each item the source emits is
 * folded into its frame within the same call, so no event crosses a queue. What leaves is what the
 * accumulating stage alone would send: the partials, the watermarks after them, batch markers.
 *
 * <p>The source's watermarks reach the accumulator as its input's would ({@link Watermark#IDLE}
 * included). One the outbox cannot take at once is taken from the source all the same and finished
 * here before anything else happens, a snapshot included: the source would offer it again after a
 * snapshot that had sent it, and it would go out twice. Both save into the vertex's snapshot, and on
 * restore each gets its own entries back.
 *
 * <p>A call folds in at most {@link #ITEMS_PER_CALL} items, so a source catching up still returns
 * within a cooperative call's time; it is then due again at once ({@link #nextDeadlineNanos}): it
 * wrote nothing, and a source refused by its outbox would otherwise wait to be woken by a consumer.
 */
public final class FusedAccumulateP implements Processor {

    /** As many as an outbox takes in one call (the engine's batch limit): the source is told "full" after them. */
    static final int ITEMS_PER_CALL = 2048;

    private final Processor source;
    private final AccumulateByFrameP accumulate;
    private Outbox outbox;
    private int foldedThisCall;
    /** A watermark (or the idle marker) the accumulator has not finished handling: partials of it still to send. */
    private Watermark handing;
    private boolean sourceComplete;
    private final Both saving = new Both();
    private final Both continuingSave = new Both();
    private final Both finishingRestore = new Both();
    private final Both preparingCommit = new Both();
    private final Both finishingCommit = new Both();

    public FusedAccumulateP(Processor source, AccumulateByFrameP accumulate) {
        this.source = source;
        this.accumulate = accumulate;
    }

    @Override
    public void init(Outbox outbox, Context context) throws Exception {
        this.outbox = outbox;
        accumulate.init(outbox, context);
        source.init(new Folding(), context);
    }

    @Override
    public boolean cutsBatches() {
        return source.cutsBatches();
    }

    @Override
    public boolean isCooperative() {
        return source.isCooperative();
    }

    /** A source has no input: it gets no watermark but its own. */
    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        throw new UnsupportedOperationException("a fused source has no input to take watermark " + watermark + " from");
    }

    @Override
    public boolean tryProcess() {
        foldedThisCall = 0;
        return handOver() && source.tryProcess();
    }

    @Override
    public boolean complete() {
        foldedThisCall = 0;
        if (!handOver()) {
            return false;
        }
        if (!sourceComplete) {
            sourceComplete = source.complete();
            if (!sourceComplete) {
                return false;
            }
        }
        // The source's last call may have left a watermark half handed over: its partials are still
        // to go, and the accumulator's complete would send them as if they were its own flush.
        return handOver() && accumulate.complete();
    }

    @Override
    public long nextDeadlineNanos() {
        return foldedThisCall >= ITEMS_PER_CALL ? System.nanoTime() : source.nextDeadlineNanos();
    }

    /** The source's position, then the frames (whose partials taken out but not sent go ahead of the barrier). */
    @Override
    public boolean saveToSnapshot() {
        return handOver() && saving.run(source::saveToSnapshot, accumulate::saveToSnapshot);
    }

    /** Finishes the watermark being handed to the accumulator, if any; false while the outbox refuses. */
    private boolean handOver() {
        if (handing == null) {
            return true;
        }
        boolean done = handing.timestamp() == Watermark.IDLE.timestamp()
                ? accumulate.tryProcessIdle() && outbox.offer(handing)
                : accumulate.tryProcessWatermark(handing);
        if (done) {
            handing = null;
        }
        return done;
    }

    @Override
    public boolean continueSnapshotSave() {
        return continuingSave.run(source::continueSnapshotSave, accumulate::continueSnapshotSave);
    }

    /** The accumulator's entries to it, the others to the source: a source may not know the frames' keys. */
    @Override
    public void restoreFromSnapshot(Inbox inbox) {
        InboxImpl others = new InboxImpl();
        for (Object item; (item = inbox.poll()) != null; ) {
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
            if (AccumulateByFrameP.holds(entry.getKey(), entry.getValue())) {
                accumulate.restoreFromSnapshot(entry.getKey(), entry.getValue());
            } else {
                others.add(entry);
            }
        }
        source.restoreFromSnapshot(others);
    }

    @Override
    public boolean finishSnapshotRestore() {
        return finishingRestore.run(source::finishSnapshotRestore, accumulate::finishSnapshotRestore);
    }

    @Override
    public boolean snapshotCommitPrepare() {
        return preparingCommit.run(source::snapshotCommitPrepare, accumulate::snapshotCommitPrepare);
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        return finishingCommit.run(() -> source.snapshotCommitFinish(success), () -> accumulate.snapshotCommitFinish(success));
    }

    @Override
    public void close() throws Exception {
        try {
            source.close();
        } finally {
            accumulate.close();
        }
    }

    /** A step both processors take, the source's first, each called again until it is done; then ready for the next time. */
    private static final class Both {
        private boolean firstDone;

        boolean run(BooleanSupplier first, BooleanSupplier second) {
            if (!firstDone) {
                firstDone = first.getAsBoolean();
                if (!firstDone) {
                    return false;
                }
            }
            if (!second.getAsBoolean()) {
                return false;
            }
            firstDone = false;
            return true;
        }
    }

    /** The source's outbox: items folded into the frames, watermarks handled as the accumulator's input's, the rest passed on. */
    private final class Folding implements Outbox {

        @Override
        public int bucketCount() {
            return 1;
        }

        @Override
        public boolean offer(int ordinal, Object item) {
            return offer(item);
        }

        @Override
        public boolean offer(Object item) {
            if (item instanceof Watermark w) {
                if (!handOver()) {
                    return false;
                }
                handing = w;
                handOver();
                return true;
            }
            if (item instanceof ControlItem) {
                return handOver() && outbox.offer(item);
            }
            if (foldedThisCall >= ITEMS_PER_CALL) {
                return false;
            }
            foldedThisCall++;
            return accumulate.tryProcess(0, item);
        }

        @Override
        public boolean offerToSnapshot(Object key, Object value) {
            return outbox.offerToSnapshot(key, value);
        }

        @Override
        public boolean hasReachedLimit() {
            return foldedThisCall >= ITEMS_PER_CALL;
        }
    }
}
