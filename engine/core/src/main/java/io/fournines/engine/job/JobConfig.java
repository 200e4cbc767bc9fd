package io.fournines.engine.job;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.snapshot.SnapshotStore;

import java.time.Duration;

/**
 * How a job runs: its processing guarantee, how often it takes a snapshot, where snapshots go, and
 * which committed snapshot, if any, it starts from.
 *
 * @param restoreFrom a snapshot committed in {@code store}, or {@link SnapshotStore#NONE} to start fresh
 */
public record JobConfig(ProcessingGuarantee guarantee, Duration snapshotInterval, SnapshotStore store, long restoreFrom) {

    public JobConfig {
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
        return new JobConfig(guarantee, snapshotInterval, store, store.latestCommitted());
    }
}
