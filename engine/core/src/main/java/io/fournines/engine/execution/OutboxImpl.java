package io.fournines.engine.execution;

import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.ControlItem;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.snapshot.SnapshotWriter;

import java.util.Arrays;

/**
 * Writes straight into the downstream queues (no buffer of its own) and refuses everything after a
 * per-call cap, so a processor with a lot to emit still yields its worker to the other tasklets.
 */
final class OutboxImpl implements Outbox {

    /** Jet's default cap: large enough to amortise a call, small enough to keep rounds short. */
    static final int DEFAULT_BATCH_LIMIT = 2048;

    private final OutboundCollector[] collectors;
    private final int batchLimit;
    /** Null when the job takes no snapshots. */
    private final SnapshotWriter snapshotWriter;
    private final boolean[] ordinalTookPendingItem;
    private Object pendingItem;
    private int emittedThisCall;
    private int dataItemsThisCall;
    private boolean wroteThisCall;
    /** A downstream queue (or a sender's credit) refused an item this call: the tasklet is backpressured. */
    private boolean refusedThisCall;
    /** The highest batch whose marker went to every output ({@link #offer(Object)}: a source's, micro-batch and group execution). */
    private long lastBatchMarker = -1;

    OutboxImpl(OutboundCollector[] collectors, int batchLimit) {
        this(collectors, batchLimit, null);
    }

    OutboxImpl(OutboundCollector[] collectors, int batchLimit, SnapshotWriter snapshotWriter) {
        this.collectors = collectors;
        this.batchLimit = batchLimit;
        this.snapshotWriter = snapshotWriter;
        this.ordinalTookPendingItem = new boolean[collectors.length];
    }

    @Override
    public int bucketCount() {
        return collectors.length;
    }

    @Override
    public boolean offer(int ordinal, Object item) {
        if (emittedThisCall >= batchLimit) {
            return false;
        }
        OutboundCollector collector = collectors[ordinal];
        boolean accepted = item instanceof ControlItem ? collector.offerToAll(item) : collector.offer(item);
        if (accepted) {
            emittedThisCall++;
            wroteThisCall = true;
            if (!(item instanceof ControlItem)) {
                dataItemsThisCall++;
            }
        } else {
            refusedThisCall = true;
        }
        return accepted;
    }

    @Override
    public boolean offer(Object item) {
        return emittedThisCall < batchLimit && offerToAllOrdinals(item);
    }

    /** Counts against the cap too, so saving a large state still yields the worker between calls. */
    @Override
    public boolean offerToSnapshot(Object key, Object value) {
        if (snapshotWriter == null) {
            throw new IllegalStateException("offerToSnapshot() in a job that takes no snapshots");
        }
        if (emittedThisCall >= batchLimit) {
            return false;
        }
        snapshotWriter.write(key, value);
        emittedThisCall++;
        return true;
    }

    /** For the tasklet's own control items (idle marker, done): not subject to the cap. */
    boolean offerControl(ControlItem item) {
        return offerToAllOrdinals(item);
    }

    private boolean offerToAllOrdinals(Object item) {
        if (item != pendingItem) {
            pendingItem = item;
            Arrays.fill(ordinalTookPendingItem, false);
        }
        boolean control = item instanceof ControlItem;
        boolean all = true;
        for (int o = 0; o < collectors.length; o++) {
            if (!ordinalTookPendingItem[o]) {
                // A broadcast writes to some queues even when it fails on others.
                ordinalTookPendingItem[o] = control ? collectors[o].offerToAll(item) : collectors[o].offer(item);
                all &= ordinalTookPendingItem[o];
                wroteThisCall = true;
            }
        }
        if (!all) {
            refusedThisCall = true;
        } else {
            if (item instanceof BatchMarker marker) {
                lastBatchMarker = marker.batch();
            }
            pendingItem = null;
            emittedThisCall++;
            if (!control) {
                dataItemsThisCall++;
            }
        }
        return all;
    }

    @Override
    public boolean hasReachedLimit() {
        return emittedThisCall >= batchLimit;
    }

    /** The highest batch whose marker was accepted by every output, -1 if none was. */
    long lastBatchMarker() {
        return lastBatchMarker;
    }

    /** Data items (not watermarks or other control items) accepted since the call began. */
    int dataItemsThisCall() {
        return dataItemsThisCall;
    }

    /** Whether a downstream queue refused an item since the call began (not the per-call cap: that is a yield). */
    boolean refusedThisCall() {
        return refusedThisCall;
    }

    /** Starts a new call: resets the cap; returns whether the previous call wrote to any queue. */
    boolean resetForNextCall() {
        boolean wrote = wroteThisCall;
        emittedThisCall = 0;
        dataItemsThisCall = 0;
        wroteThisCall = false;
        refusedThisCall = false;
        return wrote;
    }
}
