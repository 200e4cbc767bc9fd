package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.SourceBatches;

/** @param sourceBatches the job's batch scheduler; null in continuous execution */
record ProcessorContext(String vertexName, int processorIndex, int parallelism, int memberIndex, int memberCount,
                        JobMetrics metrics, Partitioner partitioner, SourceBatches sourceBatches) implements Processor.Context {

    /** An instance on a single-member engine. */
    ProcessorContext(String vertexName, int processorIndex, int parallelism, JobMetrics metrics, Partitioner partitioner, SourceBatches sourceBatches) {
        this(vertexName, processorIndex, parallelism, 0, 1, metrics, partitioner, sourceBatches);
    }

    @Override
    public int partitionOf(Object key) {
        return partitioner.partition(key);
    }

    @Override
    public int partitionOfLong(long key) {
        return partitioner.partition(key);
    }

    @Override
    public Counter counter(String name) {
        return metrics.register(vertexName, name);
    }
}
