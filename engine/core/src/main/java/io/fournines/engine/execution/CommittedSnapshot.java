package io.fournines.engine.execution;

/**
 * One snapshot of a job on this member, from its start to its commit (System.nanoTime instants): the
 * timeline a run's snapshots.csv and the dashboard show. Saved is when the last of this member's
 * tasklets had saved its state; on a cluster the commit waits for every member's.
 *
 * @param bytes what the store holds of it, as the store counts it
 */
public record CommittedSnapshot(long id, long startedNanos, long savedNanos, long committedNanos, long bytes) {
}
