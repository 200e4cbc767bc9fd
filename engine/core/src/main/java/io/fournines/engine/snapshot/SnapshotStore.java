package io.fournines.engine.snapshot;

import java.util.List;

/**
 * Where snapshots go: chunks of serialized state, addressed by (snapshot, vertex, partition), so the
 * store can be partitioned like the job's state. Two slots alternate: snapshot n is written over
 * snapshot n-2 while n-1, the latest committed, stays whole; n counts only once {@link #commit} says
 * every processor saved it. Implementations are thread-safe: all tasklets write at once.
 */
public interface SnapshotStore {

    /** The partition of entries under a {@link io.fournines.engine.core.BroadcastKey}. */
    int BROADCAST_PARTITION = -1;

    /** No snapshot committed yet. */
    long NONE = -1;

    /** Starts snapshot {@code snapshotId} in the slot not holding the latest committed snapshot, dropping what it held. */
    void begin(long snapshotId);

    void write(long snapshotId, String vertex, int partition, byte[] chunk);

    /**
     * False while a chunk written now would queue behind ones not yet sent (a replicating store's
     * connection to a backup is full): a write that can wait, a state written after its barrier, waits.
     */
    default boolean acceptsWrites() {
        return true;
    }

    /** Every processor saved the snapshot: it becomes the one to restore from. */
    void commit(long snapshotId);

    /** The latest committed snapshot, or {@link #NONE}. */
    long latestCommitted();

    /** The chunks of a committed snapshot for one vertex and partition, in the order written. */
    List<byte[]> read(long snapshotId, String vertex, int partition);

    /** Bytes of the chunks this store wrote for a snapshot, not counting copies it keeps for others (for metrics). */
    long sizeInBytes(long snapshotId);
}
