package io.fournines.engine.core;

/**
 * The end of batch {@code batch} on a stream (micro-batch and group execution): everything of the
 * batch came before this item, nothing of a later batch. Sources that cut batches emit it; every
 * other tasklet passes it on once it has it from every input and has processed what came before.
 * Batches are numbered from 0 in each execution of a job.
 */
public record BatchMarker(long batch) implements ControlItem {
}
