package io.fournines.engine.kafka;

import java.util.stream.IntStream;

/**
 * Which partitions a source instance reads: partition p belongs to the instance whose global index
 * is {@code p % totalParallelism}. The global index counts instances over the whole cluster (member
 * index × local parallelism + local index), so members and tasklets split the topic without talking
 * to each other, and each instance gets ⌊P/N⌋ or ⌈P/N⌉ partitions.
 */
public final class PartitionAssignment {

    private PartitionAssignment() {
    }

    /** The partitions of instance {@code globalIndex} of {@code totalParallelism}; may be empty. */
    public static int[] partitionsOf(int globalIndex, int totalParallelism, int partitionCount) {
        if (totalParallelism < 1 || globalIndex < 0 || globalIndex >= totalParallelism) {
            throw new IllegalArgumentException("instance " + globalIndex + " of " + totalParallelism + " does not exist");
        }
        return IntStream.range(0, partitionCount).filter(p -> p % totalParallelism == globalIndex).toArray();
    }
}
