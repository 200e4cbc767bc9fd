package io.fournines.engine.core;

/**
 * Snapshot {@code snapshotId}'s cut through a queue: the producer saved its state after everything
 * before this item and before anything after it (Chandy-Lamport's marker). Sources inject barriers;
 * every other processor saves its state once the barrier has arrived on all its inputs.
 */
public record SnapshotBarrier(long snapshotId) implements ControlItem {
}
