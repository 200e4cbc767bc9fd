package io.fournines.engine.kafka;

import io.fournines.engine.core.Inbox;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Watermark;

import java.util.concurrent.CountDownLatch;

/**
 * A sink that stops making progress at its {@code stallAt}-th {@link #snapshotCommitFinish} after
 * its first item, so that the transaction it never commits holds records: the
 * snapshot is committed in the store but the sink never commits its transaction, as when a member
 * dies between the two. Everything else goes to the wrapped sink.
 */
final class StallingSinkP implements Processor {

    private final Processor sink;
    private final int stallAt;
    private final CountDownLatch stalled;
    private int finishes;
    private boolean tookItems;

    StallingSinkP(Processor sink, int stallAt, CountDownLatch stalled) {
        this.sink = sink;
        this.stallAt = stallAt;
        this.stalled = stalled;
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (tookItems && finishes + 1 == stallAt) {
            stalled.countDown();
            return false;
        }
        if (tookItems) {
            finishes++;
        }
        return sink.snapshotCommitFinish(success);
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
        tookItems |= !inbox.isEmpty();
        sink.process(ordinal, inbox);
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        return sink.tryProcessWatermark(watermark);
    }

    @Override
    public boolean complete() {
        return sink.complete();
    }

    @Override
    public boolean saveToSnapshot() {
        return sink.saveToSnapshot();
    }

    @Override
    public boolean snapshotCommitPrepare() {
        return sink.snapshotCommitPrepare();
    }

    @Override
    public void close() throws Exception {
        sink.close();
    }
}
