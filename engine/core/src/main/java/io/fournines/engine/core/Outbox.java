package io.fournines.engine.core;

/**
 * Where a processor emits: one bucket per output ordinal. Offers go straight into the downstream
 * queues, so a refused offer is backpressure: keep the item, return, and offer it again on the next
 * call. After a cap of items per call every offer is refused, to make the processor yield its thread.
 */
public interface Outbox {

    /** Number of output ordinals. */
    int bucketCount();

    /** Offers an item to one output ordinal. */
    boolean offer(int ordinal, Object item);

    /**
     * Offers an item to every output ordinal. When it returns false, some ordinals may already hold
     * the item: offer the same instance again and only the rest receive it.
     */
    boolean offer(Object item);

    /**
     * Saves one entry of this instance's state into the snapshot being taken; only valid inside
     * {@link Processor#saveToSnapshot()}, {@link Processor#snapshotCommitPrepare()} and
     * {@link Processor#continueSnapshotSave()}. Keys and values
     * must be {@link java.io.Serializable}. Refused once this call's cap is reached.
     */
    boolean offerToSnapshot(Object key, Object value);

    /** True once this call's cap is reached: every further offer is refused until the next call. */
    boolean hasReachedLimit();
}
