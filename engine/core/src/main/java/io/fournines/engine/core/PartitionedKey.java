package io.fournines.engine.core;

import java.io.Serializable;

/**
 * A snapshot key that names its partition instead of being hashed to one: for state a processor
 * has already grouped by partition ({@link Processor.Context#partitionOf}), so that many keys'
 * state can be saved as one entry and still go to the partition's owner on restore.
 */
public record PartitionedKey(int partition, Object id) implements Serializable {
}
