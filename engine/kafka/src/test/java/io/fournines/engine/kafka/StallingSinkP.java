package io.fournines.engine.kafka;

import io.fournines.engine.core.DelegatingProcessor;
import io.fournines.engine.core.Inbox;
import io.fournines.engine.core.Processor;

import java.util.concurrent.CountDownLatch;

/**
 * A sink that stops making progress at its {@code stallAt}-th {@link #snapshotCommitFinish} after
 * its first item, so that the transaction it never commits holds records: the
 * snapshot is committed in the store but the sink never commits its transaction, as when a member
 * dies between the two. Everything else goes to the wrapped sink.
 */
final class StallingSinkP extends DelegatingProcessor {

    private final int stallAt;
    private final CountDownLatch stalled;
    private int finishes;
    private boolean tookItems;

    StallingSinkP(Processor sink, int stallAt, CountDownLatch stalled) {
        super(sink);
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
        return super.snapshotCommitFinish(success);
    }

    @Override
    public void process(int ordinal, Inbox inbox) {
        tookItems |= !inbox.isEmpty();
        super.process(ordinal, inbox);
    }
}
