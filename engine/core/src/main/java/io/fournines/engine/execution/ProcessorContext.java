package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Processor;

record ProcessorContext(String vertexName, int processorIndex, int parallelism, JobMetrics metrics, Partitioner partitioner)
        implements Processor.Context {

    @Override
    public int partitionOf(Object key) {
        return partitioner.partition(key);
    }

    @Override
    public Counter counter(String name) {
        return metrics.register(vertexName, name);
    }
}
