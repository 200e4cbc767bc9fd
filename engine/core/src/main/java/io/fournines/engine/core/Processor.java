package io.fournines.engine.core;

/**
 * The unit of computation: one instance runs on one worker, fed from its {@link Inbox} and writing
 * to its {@link Outbox}.
 *
 * <p>The contract is cooperative. No method may block: when the outbox refuses an item, the
 * processor keeps it and returns, and the engine calls it again later. Methods that return
 * {@code boolean} are called until they return {@code true}. All methods are called from one thread
 * at a time, so a processor needs no synchronisation of its own.
 *
 * <p>Most processors extend {@link AbstractProcessor}, which turns the inbox into per-item calls and
 * forwards watermarks.
 */
public interface Processor {

    /** Called once, before any other method, with the outbox to write to. */
    default void init(Outbox outbox, Context context) throws Exception {
    }

    /**
     * A source that, in micro-batch or group execution, emits its items batch by batch as
     * {@link Context#sourceBatches()} releases them, each batch followed by its {@link BatchMarker}.
     * A source that does not is taken as finite there: its every batch ends only when it does.
     */
    default boolean cutsBatches() {
        return false;
    }

    /**
     * A cooperative processor shares a worker thread with others, so each call must return within
     * about a millisecond. A non-cooperative one gets a thread of its own and may block briefly.
     */
    default boolean isCooperative() {
        return true;
    }

    /**
     * Takes items from the inbox, which holds items from input {@code ordinal} only. Removes each
     * item once it is fully handled; items left in the inbox are offered again in the next call.
     */
    default void process(int ordinal, Inbox inbox) {
        throw new UnsupportedOperationException(getClass().getName() + " has inputs but does not override process()");
    }

    /**
     * Handles a watermark coalesced over all inputs: no later item will carry an earlier event time.
     * Returns true once done, typically after forwarding the watermark.
     */
    boolean tryProcessWatermark(Watermark watermark);

    /**
     * Every input has gone quiet ({@link Watermark#IDLE}): no watermark comes until one wakes up, and
     * downstream stops waiting for this instance's. Called before the idle marker is passed on, so a
     * processor holding items that only a watermark would release can send them first. Returns true
     * once done.
     */
    default boolean tryProcessIdle() {
        return true;
    }

    /** Called when the inbox is empty, so time-driven processors can make progress. */
    default boolean tryProcess() {
        return true;
    }

    /** Input {@code ordinal} has delivered all its items. Returns true once done. */
    default boolean completeEdge(int ordinal) {
        return true;
    }

    /**
     * All inputs are done (a source, having none, is called here repeatedly from the start). Returns
     * true once the processor has emitted everything it will ever emit; a streaming source never does.
     */
    default boolean complete() {
        return true;
    }

    /**
     * The earliest {@link System#nanoTime()} at which this processor has work that no input will
     * trigger (a rate-controlled source's next scheduled item). Lets an idle worker sleep until then
     * instead of polling. {@link Long#MAX_VALUE}: no such time.
     */
    default long nextDeadlineNanos() {
        return Long.MAX_VALUE;
    }

    /**
     * Saves this instance's state with {@link Outbox#offerToSnapshot}, once every input has delivered
     * the snapshot's barrier (sources: when the snapshot starts) and everything before it has been
     * processed. Returns true once all is saved; false when the outbox refused an entry (call again
     * and resume). Stateless processors keep the default.
     */
    default boolean saveToSnapshot() {
        return true;
    }

    /**
     * Called once {@link #saveToSnapshot()} and {@link #snapshotCommitPrepare()} returned true and the
     * barrier went downstream, at the start of every later call until it returns true: a processor
     * whose saveToSnapshot() took a copy-on-write view of a large state writes it here with
     * {@link Outbox#offerToSnapshot}, a bounded piece per call, while it goes on processing. Its part
     * of the snapshot is saved once this returns true; the next snapshot waits for it.
     */
    default boolean continueSnapshotSave() {
        return true;
    }

    /**
     * On a restored job, before any other call but init: the snapshot entries this instance owns, as
     * {@link java.util.Map.Entry} items (every {@link BroadcastKey} entry, and the entries whose key's
     * partition it owns). Remove each entry once taken.
     */
    default void restoreFromSnapshot(Inbox inbox) {
        throw new UnsupportedOperationException(getClass().getName() + " saved state but does not override restoreFromSnapshot()");
    }

    /** After the last {@link #restoreFromSnapshot} call. Returns true once done. */
    default boolean finishSnapshotRestore() {
        return true;
    }

    /**
     * Two-phase commit, phase one: called right after {@link #saveToSnapshot()}. A transactional sink
     * prepares what it wrote since the last snapshot, and saves the transaction's id in the snapshot
     * so that a restore can commit it. Returns true once done.
     */
    default boolean snapshotCommitPrepare() {
        return true;
    }

    /**
     * Phase two: the snapshot this instance last prepared is complete on every processor of the job
     * ({@code success}) or abandoned. A transactional sink commits or rolls back. Returns true once done.
     */
    default boolean snapshotCommitFinish(boolean success) {
        return true;
    }

    /** Called once after the processor is done, failed or cancelled. */
    default void close() throws Exception {
    }

    /** Where a processor instance sits in the job. */
    interface Context {
        String vertexName();

        /** This instance's index among the vertex's instances, 0-based. */
        int processorIndex();

        /** How many instances of the vertex run on this member. */
        int parallelism();

        /** This member's index in the cluster, 0-based; 0 on a single-member engine. */
        default int memberIndex() {
            return 0;
        }

        /** How many members run the job; every member runs {@link #parallelism()} instances of each vertex. */
        default int memberCount() {
            return 1;
        }

        /**
         * A counter this instance owns, reported in the job's metrics as {@code vertex.name}, summed
         * over the vertex's instances. Call it once, in init.
         */
        Counter counter(String name);

        /** The partition a key belongs to on this job's partitioned edges and in its snapshots. */
        int partitionOf(Object key);

        /** {@link #partitionOf} of a long key, without boxing it. */
        default int partitionOfLong(long key) {
            return partitionOf(key);
        }

        /** What a source that cuts batches follows in micro-batch or group execution; null in continuous execution. */
        default SourceBatches sourceBatches() {
            return null;
        }
    }
}
