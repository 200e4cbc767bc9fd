package io.fournines.nexmark.driver;

/**
 * One committed snapshot on this member (System.nanoTime instants): started, saved by every
 * processor here, committed (on a cluster, once every member saved it), and its size as the
 * engine's store counts it. A row of {@code snapshots.csv} (scenarios/docs/member-contract.md).
 */
public record SnapshotTimes(long id, long startedNanos, long savedNanos, long committedNanos, long bytes) {
}
