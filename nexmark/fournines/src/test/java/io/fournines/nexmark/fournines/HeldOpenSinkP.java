package io.fournines.nexmark.fournines;

import io.fournines.engine.core.Inbox;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Watermark;

import java.util.function.BooleanSupplier;

/**
 * A sink that does not finish until {@code released} holds: it has taken every result, and still
 * saves and commits each snapshot. A kill test's moment (the Nth snapshot committed) then comes
 * while the job runs however slowly its snapshots go; a short job on a loaded machine would
 * otherwise end first, with the moment never reached.
 */
final class HeldOpenSinkP implements Processor {

    /** How often a held sink looks at {@code released} (a file's existence) at most. */
    private static final long CHECK_NANOS = 10_000_000;

    private final Processor sink;
    private final BooleanSupplier released;
    private boolean isReleased;
    private long nextCheckNanos;

    HeldOpenSinkP(Processor sink, BooleanSupplier released) {
        this.sink = sink;
        this.released = released;
    }

    @Override
    public boolean complete() {
        if (!isReleased) {
            long now = System.nanoTime();
            if (now < nextCheckNanos) {
                return false;
            }
            nextCheckNanos = now + CHECK_NANOS;
            isReleased = released.getAsBoolean();
            if (!isReleased) {
                return false;
            }
        }
        return sink.complete();
    }

    @Override
    public void init(Outbox outbox, Context context) throws Exception {
        sink.init(outbox, context);
    }

    @Override
    public boolean isCooperative() {
        return sink.isCooperative();
    }

    @Override
    public void process(int ordinal, Inbox inbox) {
        sink.process(ordinal, inbox);
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        return sink.tryProcessWatermark(watermark);
    }

    @Override
    public boolean tryProcessIdle() {
        return sink.tryProcessIdle();
    }

    @Override
    public boolean tryProcess() {
        return sink.tryProcess();
    }

    @Override
    public boolean completeEdge(int ordinal) {
        return sink.completeEdge(ordinal);
    }

    @Override
    public long nextDeadlineNanos() {
        return isReleased ? sink.nextDeadlineNanos() : Math.min(sink.nextDeadlineNanos(), nextCheckNanos);
    }

    @Override
    public boolean saveToSnapshot() {
        return sink.saveToSnapshot();
    }

    @Override
    public void restoreFromSnapshot(Inbox inbox) {
        sink.restoreFromSnapshot(inbox);
    }

    @Override
    public boolean finishSnapshotRestore() {
        return sink.finishSnapshotRestore();
    }

    @Override
    public boolean snapshotCommitPrepare() {
        return sink.snapshotCommitPrepare();
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        return sink.snapshotCommitFinish(success);
    }

    @Override
    public void close() throws Exception {
        sink.close();
    }
}
