package io.fournines.engine.job;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.snapshot.SnapshotStore;

import java.time.Duration;

/**
 * How a job runs: its processing guarantee, how often it takes a snapshot, where snapshots go,
 * which committed snapshot, if any, it starts from, and its execution model.
 *
 * @param restoreFrom a snapshot committed in {@code store}, or {@link SnapshotStore#NONE} to start fresh
 */
public record JobConfig(ProcessingGuarantee guarantee, Duration snapshotInterval, SnapshotStore store, long restoreFrom,
                        ExecutionModel execution) {

    public JobConfig(ProcessingGuarantee guarantee, Duration snapshotInterval, SnapshotStore store, long restoreFrom) {
        this(guarantee, snapshotInterval, store, restoreFrom, ExecutionModel.CONTINUOUS);
    }

    public JobConfig {
        if (execution == null) {
            throw new IllegalArgumentException("execution must be given (ExecutionModel.CONTINUOUS by default)");
        }
        if (guarantee != ProcessingGuarantee.NONE) {
            if (store == null) {
                throw new IllegalArgumentException("guarantee " + guarantee + " needs a snapshot store");
            }
            if (snapshotInterval == null || snapshotInterval.isNegative() || snapshotInterval.isZero()) {
                throw new IllegalArgumentException("guarantee " + guarantee + " needs a positive snapshot interval, got " + snapshotInterval);
            }
        }
        if (restoreFrom != SnapshotStore.NONE) {
            if (guarantee == ProcessingGuarantee.NONE) {
                throw new IllegalArgumentException("restoring snapshot " + restoreFrom + " needs a guarantee other than NONE");
            }
            if (restoreFrom > store.latestCommitted()) {
                throw new IllegalArgumentException("snapshot " + restoreFrom + " is not committed in the store (latest committed: "
                        + store.latestCommitted() + ")");
            }
        }
    }

    /** No snapshots. */
    public static JobConfig defaults() {
        return new JobConfig(ProcessingGuarantee.NONE, null, null, SnapshotStore.NONE);
    }

    public static JobConfig snapshotting(ProcessingGuarantee guarantee, Duration interval, SnapshotStore store) {
        return new JobConfig(guarantee, interval, store, SnapshotStore.NONE);
    }

    /** The same job, started from the latest snapshot committed in the store (fresh if none is). */
    public JobConfig restoringLatest() {
        return new JobConfig(guarantee, snapshotInterval, store, store.latestCommitted(), execution);
    }

    /** The same job under another execution model. */
    public JobConfig executing(ExecutionModel model) {
        return new JobConfig(guarantee, snapshotInterval, store, restoreFrom, model);
    }
}
