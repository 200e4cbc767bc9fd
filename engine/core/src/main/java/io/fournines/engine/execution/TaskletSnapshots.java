package io.fournines.engine.execution;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.core.Processor;
import io.fournines.engine.snapshot.SnapshotReader;
import io.fournines.engine.snapshot.SnapshotStore;
import io.fournines.engine.snapshot.SnapshotWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One tasklet's part in its job's snapshots: when its inputs are aligned on the next barrier, where
 * its state goes, what it restores from, and which commits it has passed on to its processor.
 */
final class TaskletSnapshots {

    private final SnapshotCoordinator coordinator;
    private final SnapshotWriter writer;
    private final String vertex;
    private final int[] ownedPartitions;
    private final List<SnapshotCoordinator.FinalChunk> finalState = new ArrayList<>();
    /** The last snapshot whose barrier this tasklet passed on, its state taken (maybe still being written). */
    private long lastSaved;
    /** The processor is still writing lastSaved's state (Processor#continueSnapshotSave). */
    private boolean writing;
    private long lastCommitFinished;
    private SnapshotReader reader;

    TaskletSnapshots(SnapshotCoordinator coordinator, Processor.Context context, Partitioner partitioner) {
        this.coordinator = coordinator;
        this.vertex = context.vertexName();
        this.writer = new SnapshotWriter(vertex, partitioner);
        // Owners as on a partitioned edge: the vertex's instances over all members, in member order.
        int self = context.memberIndex() * context.parallelism() + context.processorIndex();
        this.ownedPartitions = partitioner.partitionsOwnedBy(self, self + 1, context.memberCount() * context.parallelism());
        this.lastSaved = coordinator.committed();
        this.lastCommitFinished = lastSaved;
    }

    boolean enabled() {
        return coordinator.enabled();
    }

    boolean restoring() {
        return coordinator.enabled() && coordinator.restoredFrom() != SnapshotStore.NONE;
    }

    /** Exactly-once stops each input at the next snapshot's barrier; otherwise no input ever stops. */
    long blockInputsFromBarrier() {
        return coordinator.guarantee() == ProcessingGuarantee.EXACTLY_ONCE ? lastSaved + 1 : Long.MAX_VALUE;
    }

    /** The snapshot to save now if every input delivered its barrier (a source: once it is requested), else -1. */
    long dueSnapshot(InboundStream[] streams) {
        if (!coordinator.enabled()) {
            return -1;
        }
        long next = lastSaved + 1;
        if (writing || coordinator.requested() < next) {
            return -1;
        }
        for (InboundStream stream : streams) {
            if (!stream.reachedBarrier(next)) {
                return -1;
            }
        }
        return next;
    }

    SnapshotWriter writer() {
        return writer;
    }

    void beginSave(long snapshotId) {
        SnapshotStore store = coordinator.store();
        writer.begin((v, partition, chunk) -> store.write(snapshotId, v, partition, chunk));
    }

    /** The state is taken as of {@code snapshotId} and its barrier goes on: inputs now stop at the next one. */
    void taken(long snapshotId) {
        lastSaved = snapshotId;
        writing = true;
    }

    boolean writing() {
        return writing;
    }

    /** Whether the store takes chunks now without queueing them behind unsent ones. */
    boolean storeAcceptsWrites() {
        return coordinator.store().acceptsWrites();
    }

    /** The processor has written all of the state taken: its part of the snapshot is saved. */
    void finishSave() {
        writer.finish();
        writing = false;
        coordinator.saved(lastSaved);
    }

    void beginFinalSave() {
        writer.begin((v, partition, chunk) -> finalState.add(new SnapshotCoordinator.FinalChunk(v, partition, chunk)));
    }

    void finishFinalSave() {
        writer.finish();
    }

    /**
     * The tasklet saves no more snapshots: its final state stands in for it. Returns the first
     * snapshot that holds that state.
     */
    long ended() {
        return coordinator.ended(lastSaved, List.copyOf(finalState));
    }

    long committed() {
        return coordinator.committed();
    }

    /** The processor committed its last transaction: the tasklet ends. */
    void finalCommitFinished() {
        coordinator.finalCommitFinished();
    }

    /** True when a snapshot this tasklet prepared has been committed and the processor was not told yet. */
    boolean commitToFinish() {
        return lastCommitFinished < lastSaved && coordinator.committed() >= lastSaved;
    }

    void commitFinished() {
        lastCommitFinished = lastSaved;
    }

    /** Fills the inbox with up to {@code max} entries to restore; returns false once all were handed out. */
    boolean fillRestoreInbox(InboxImpl inbox, int max) {
        if (reader == null) {
            reader = new SnapshotReader(coordinator.store(), coordinator.restoredFrom(), vertex, ownedPartitions);
        }
        for (int i = 0; i < max; i++) {
            Map.Entry<Object, Object> entry = reader.next();
            if (entry == null) {
                return i > 0;
            }
            inbox.add(entry);
        }
        return true;
    }
}
