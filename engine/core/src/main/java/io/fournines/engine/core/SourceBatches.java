package io.fournines.engine.core;

/**
 * What a source that cuts batches ({@link Processor#cutsBatches()}) needs from its job's scheduler in
 * micro-batch or group execution ({@link Processor.Context#sourceBatches()}): how far it may emit now,
 * and where each batch ends. After the last item due before {@link #endOf}(n) it emits
 * {@link BatchMarker}(n), for every n in turn.
 */
public interface SourceBatches {

    /**
     * Items due before this epoch instant (ns) may be emitted at {@code nowEpochNanos}: the end of the
     * last batch launched, and never past the last batch end that has passed (a batch is emitted whole,
     * once its time is over).
     */
    long releasedBefore(long nowEpochNanos);

    /** The end (epoch ns, exclusive) of batch {@code batch}. */
    long endOf(long batch);
}
