package io.fournines.engine.core;

/**
 * A processor that hands every call to another: a wrapper overrides only the calls it changes (a
 * test's sink that stalls or holds back its end), and every other one, restores included, still
 * reaches the wrapped processor.
 */
public abstract class DelegatingProcessor implements Processor {

    private final Processor delegate;

    protected DelegatingProcessor(Processor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void init(Outbox outbox, Context context) throws Exception {
        delegate.init(outbox, context);
    }

    @Override
    public boolean cutsBatches() {
        return delegate.cutsBatches();
    }

    @Override
    public boolean isCooperative() {
        return delegate.isCooperative();
    }

    @Override
    public void process(int ordinal, Inbox inbox) {
        delegate.process(ordinal, inbox);
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        return delegate.tryProcessWatermark(watermark);
    }

    @Override
    public boolean tryProcessIdle() {
        return delegate.tryProcessIdle();
    }

    @Override
    public boolean tryProcess() {
        return delegate.tryProcess();
    }

    @Override
    public boolean completeEdge(int ordinal) {
        return delegate.completeEdge(ordinal);
    }

    @Override
    public boolean complete() {
        return delegate.complete();
    }

    @Override
    public long nextDeadlineNanos() {
        return delegate.nextDeadlineNanos();
    }

    @Override
    public boolean saveToSnapshot() {
        return delegate.saveToSnapshot();
    }

    @Override
    public boolean continueSnapshotSave() {
        return delegate.continueSnapshotSave();
    }

    @Override
    public void restoreFromSnapshot(Inbox inbox) {
        delegate.restoreFromSnapshot(inbox);
    }

    @Override
    public boolean finishSnapshotRestore() {
        return delegate.finishSnapshotRestore();
    }

    @Override
    public boolean snapshotCommitPrepare() {
        return delegate.snapshotCommitPrepare();
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        return delegate.snapshotCommitFinish(success);
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
