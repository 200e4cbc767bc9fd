package io.fournines.engine.snapshot;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Inbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sink with two-phase commit into a {@link TransactionalList}: items since the last snapshot are
 * prepared as one transaction when a snapshot is saved, and published once the snapshot commits. A
 * restore publishes the transactions its snapshot prepared, whichever instance prepared them (a job
 * restored on fewer instances has no one else to do it), and drops every other one of its own.
 */
final class TransactionalListSinkP extends AbstractProcessor {

    /** The external system: prepared transactions by id, and what was published. */
    static final class TransactionalList {
        private final Map<String, List<Object>> prepared = new LinkedHashMap<>();
        private final List<Object> published = new ArrayList<>();

        synchronized void prepare(String txn, List<Object> items) {
            prepared.put(txn, List.copyOf(items));
        }

        /** Idempotent: committing an unknown or already published transaction does nothing. */
        synchronized void commit(String txn) {
            List<Object> items = prepared.remove(txn);
            if (items != null) {
                published.addAll(items);
            }
        }

        synchronized void abortAllOf(String owner) {
            prepared.keySet().removeIf(txn -> txn.startsWith(owner + "/"));
        }

        synchronized List<Object> published() {
            return List.copyOf(published);
        }
    }

    private final TransactionalList target;
    private final int itemsPerCall;
    private final AtomicLong itemsBeforeFailure;
    /** Null, or: instance 0 sets it once it prepared its last transaction, and instance 1 fails then. */
    private final AtomicBoolean firstFinished;
    private final List<Object> open = new ArrayList<>();
    private final List<String> preparedNotCommitted = new ArrayList<>();
    private String owner;
    private int index;
    private boolean completed;

    TransactionalListSinkP(TransactionalList target) {
        this(target, Integer.MAX_VALUE, new AtomicLong(-1), null);
    }

    /** Instance 0 finishes; instance 1 holds back its end until 0 has prepared its last transaction, then fails. */
    TransactionalListSinkP(TransactionalList target, AtomicBoolean firstFinished) {
        this(target, Integer.MAX_VALUE, new AtomicLong(-1), firstFinished);
    }

    /**
     * A slow sink that fails once: it takes at most {@code itemsPerCall} items a call, and throws when
     * {@code itemsBeforeFailure} (shared by every instance, of every job it is given to) counts down to 0.
     */
    TransactionalListSinkP(TransactionalList target, int itemsPerCall, AtomicLong itemsBeforeFailure) {
        this(target, itemsPerCall, itemsBeforeFailure, null);
    }

    private TransactionalListSinkP(TransactionalList target, int itemsPerCall, AtomicLong itemsBeforeFailure, AtomicBoolean firstFinished) {
        this.target = target;
        this.itemsPerCall = itemsPerCall;
        this.itemsBeforeFailure = itemsBeforeFailure;
        this.firstFinished = firstFinished;
    }

    @Override
    public void process(int ordinal, Inbox inbox) {
        for (int taken = 0; taken < itemsPerCall && !inbox.isEmpty(); taken++) {
            if (itemsBeforeFailure.decrementAndGet() == 0) {
                throw new IllegalStateException("injected sink failure");
            }
            open.add(inbox.poll());
        }
    }

    @Override
    protected void init(Context context) {
        owner = context.vertexName() + "#" + context.processorIndex();
        index = context.processorIndex();
    }

    @Override
    public boolean complete() {
        if (firstFinished != null && index == 1) {
            if (!firstFinished.get()) {
                return false;
            }
            throw new IllegalStateException("injected sink failure");
        }
        completed = true;
        return true;
    }

    @Override
    public boolean snapshotCommitPrepare() {
        if (!open.isEmpty() || preparedNotCommitted.isEmpty()) {
            String txn = owner + "/" + UUID.randomUUID();
            target.prepare(txn, open);
            open.clear();
            preparedNotCommitted.add(txn);
        }
        if (!tryEmitToSnapshot(new BroadcastKey(owner), new ArrayList<>(preparedNotCommitted))) {
            return false;
        }
        if (completed && firstFinished != null) {
            firstFinished.set(true);
        }
        return true;
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (success) {
            preparedNotCommitted.forEach(target::commit);
        } else {
            target.abortAllOf(owner);
        }
        preparedNotCommitted.clear();
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void restoreFromSnapshot(Object key, Object value) {
        // Every instance sees every list; committing is idempotent.
        ((List<String>) value).forEach(target::commit);
    }

    @Override
    public boolean finishSnapshotRestore() {
        target.abortAllOf(owner);
        return true;
    }
}
