package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Processor;

record ProcessorContext(String vertexName, int processorIndex, int parallelism, int memberIndex, int memberCount,
                        JobMetrics metrics, Partitioner partitioner) implements Processor.Context {

    /** An instance on a single-member engine. */
    ProcessorContext(String vertexName, int processorIndex, int parallelism, JobMetrics metrics, Partitioner partitioner) {
        this(vertexName, processorIndex, parallelism, 0, 1, metrics, partitioner);
    }

    @Override
    public int partitionOf(Object key) {
        return partitioner.partition(key);
    }

    @Override
    public Counter counter(String name) {
        return metrics.register(vertexName, name);
    }
}
