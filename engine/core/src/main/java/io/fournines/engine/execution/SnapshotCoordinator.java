package io.fournines.engine.execution;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.snapshot.SnapshotStore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * A job's snapshots: starts one when asked (sources see the request and inject its barrier), counts
 * the tasklets that saved it, and commits it in the store once all have, so only a complete snapshot
 * can be restored. One snapshot at a time: a request while one is running is declined.
 *
 * <p>On a member of a cluster the commit is the cluster's: {@link #commitAfterClusterAgrees} makes
 * this member report that its tasklets saved a snapshot instead of committing it, and the cluster's
 * coordinator starts every snapshot ({@link #startSnapshot}) and commits it ({@link #commitSnapshot})
 * once every member saved it.
 *
 * <p>A tasklet that finished takes no part in later snapshots, but its last state does: it saves a
 * final state as it ends, and that is copied into every snapshot from then on. A consumer that saw
 * its done item has all its output, so the cut stays consistent. Its processor's last transaction
 * commits only once the first snapshot holding that state has, so snapshots go on while any
 * finished tasklet waits for that.
 */
public final class SnapshotCoordinator {

    /** Committed snapshots kept for {@link #drainCommitted} when it is not called (a job run without a driver). */
    static final int HISTORY = 1024;

    /** A chunk of a finished tasklet's final state. */
    record FinalChunk(String vertex, int partition, byte[] chunk) {
    }

    private final ProcessingGuarantee guarantee;
    private final SnapshotStore store;
    private final long restoredFrom;
    private final List<FinalChunk> finalStates = new ArrayList<>();

    /** The newest snapshot sources should inject. */
    private volatile long requested;
    /** The newest snapshot every tasklet saved and the store committed. */
    private volatile long committed;
    private int liveTasklets;
    /** Tasklets that ended and wait for a snapshot that holds their final state to commit. */
    private int awaitingCommit;
    private int remaining;
    private boolean inProgress;
    private long startedNanos;
    /** When the running snapshot was saved by every tasklet here. */
    private long savedNanos;
    /** Committed snapshots not yet taken by {@link #drainCommitted}, the newest {@link #HISTORY} when no one takes them. */
    private final ArrayDeque<CommittedSnapshot> committedHistory = new ArrayDeque<>();
    private long completedCount;
    private long lastDurationNanos;
    /** When the latest snapshot committed, or (none yet) when this coordinator was made. */
    private long lastCommittedAtNanos = System.nanoTime();
    /** Null: this member alone commits; else told when this member's tasklets saved a snapshot. */
    private LongConsumer locallySaved;

    /**
     * @param restoredFrom the committed snapshot the job starts from, or {@link SnapshotStore#NONE};
     *                     new snapshots are numbered after it
     */
    public SnapshotCoordinator(ProcessingGuarantee guarantee, SnapshotStore store, long restoredFrom) {
        if (guarantee != ProcessingGuarantee.NONE && store == null) {
            throw new IllegalArgumentException("a job with guarantee " + guarantee + " needs a snapshot store");
        }
        this.guarantee = guarantee;
        this.store = store;
        this.restoredFrom = restoredFrom;
        this.requested = Math.max(restoredFrom, 0);
        this.committed = requested;
    }

    public static SnapshotCoordinator none() {
        return new SnapshotCoordinator(ProcessingGuarantee.NONE, null, SnapshotStore.NONE);
    }

    public boolean enabled() {
        return guarantee != ProcessingGuarantee.NONE;
    }

    public ProcessingGuarantee guarantee() {
        return guarantee;
    }

    SnapshotStore store() {
        return store;
    }

    long restoredFrom() {
        return restoredFrom;
    }

    long requested() {
        return requested;
    }

    public long committed() {
        return committed;
    }

    /** Starts the next snapshot unless one is running or no tasklet is left; returns whether it started. */
    public synchronized boolean tryStartSnapshot() {
        if (!enabled() || inProgress || liveTasklets + awaitingCommit == 0) {
            return false;
        }
        startSnapshot(requested + 1);
        return true;
    }

    /** Starts snapshot {@code id} (numbered by the cluster's coordinator); none may be running. */
    public synchronized void startSnapshot(long id) {
        if (!enabled() || inProgress || id <= requested) {
            throw new IllegalStateException("cannot start snapshot " + id + ": " + (!enabled() ? "the job takes no snapshots"
                    : inProgress ? "snapshot " + requested + " is running" : "snapshot " + requested + " was started already"));
        }
        store.begin(id);
        finalStates.forEach(c -> store.write(id, c.vertex(), c.partition(), c.chunk()));
        inProgress = true;
        remaining = liveTasklets;
        startedNanos = System.nanoTime();
        requested = id;
        if (remaining == 0) {
            allSaved();
        }
    }

    /**
     * From now on this member does not commit a snapshot its tasklets saved: it tells {@code
     * locallySaved} (on a worker thread: must not block) and waits for {@link #commitSnapshot}.
     */
    public synchronized void commitAfterClusterAgrees(LongConsumer locallySaved) {
        this.locallySaved = locallySaved;
    }

    /** Every member saved snapshot {@code id}: commit it here. */
    public synchronized void commitSnapshot(long id) {
        if (!inProgress || id != requested || remaining > 0) {
            throw new IllegalStateException("cannot commit snapshot " + id + ": snapshot " + requested
                    + (inProgress ? " is running, " + remaining + " tasklets have not saved it" : " is not running"));
        }
        commit();
    }

    /** Snapshots committed since the job started, and how long the latest took from start to commit. */
    public synchronized long completedCount() {
        return completedCount;
    }

    public synchronized long lastDurationNanos() {
        return lastDurationNanos;
    }

    /** How long ago the latest snapshot committed (none yet: since the job started): a stall shows here. */
    public synchronized long nanosSinceLastCommit() {
        return System.nanoTime() - lastCommittedAtNanos;
    }

    synchronized void taskletStarted() {
        liveTasklets++;
    }

    synchronized void saved(long snapshotId) {
        if (!inProgress || snapshotId != requested) {
            throw new IllegalStateException("a tasklet saved snapshot " + snapshotId + " but snapshot " + requested
                    + (inProgress ? " is running" : " is not running"));
        }
        if (--remaining == 0) {
            allSaved();
        }
    }

    /**
     * A tasklet ended after saving {@code lastSaved}; its final state belongs to every later snapshot.
     * Returns the first that holds it (the running one, if the tasklet had not saved it yet); the
     * tasklet waits for it to commit before its processor commits its last transaction.
     */
    synchronized long ended(long lastSaved, List<FinalChunk> finalState) {
        liveTasklets--;
        awaitingCommit++;
        finalStates.addAll(finalState);
        if (inProgress && lastSaved < requested) {
            long holding = requested;
            finalState.forEach(c -> store.write(holding, c.vertex(), c.partition(), c.chunk()));
            if (--remaining == 0) {
                allSaved();
            }
            return holding;
        }
        long next = requested + 1;
        // Alone, the last tasklet to end takes the snapshot its final commit waits for at once, not an interval later.
        if (locallySaved == null && liveTasklets == 0 && !inProgress) {
            startSnapshot(next);
        }
        return next;
    }

    synchronized void finalCommitFinished() {
        awaitingCommit--;
    }

    /** Hands {@code to} each snapshot committed since the last call (at most the newest {@link #HISTORY}), oldest first. */
    public synchronized void drainCommitted(Consumer<CommittedSnapshot> to) {
        for (CommittedSnapshot c; (c = committedHistory.poll()) != null; ) {
            to.accept(c);
        }
    }

    private void allSaved() {
        savedNanos = System.nanoTime();
        if (locallySaved == null) {
            commit();
        } else {
            locallySaved.accept(requested);
        }
    }

    private void commit() {
        store.commit(requested);
        inProgress = false;
        completedCount++;
        lastCommittedAtNanos = System.nanoTime();
        lastDurationNanos = lastCommittedAtNanos - startedNanos;
        committed = requested;
        if (committedHistory.size() == HISTORY) {
            committedHistory.poll();
        }
        committedHistory.add(new CommittedSnapshot(requested, startedNanos, savedNanos, lastCommittedAtNanos, store.sizeInBytes(requested)));
    }
}
