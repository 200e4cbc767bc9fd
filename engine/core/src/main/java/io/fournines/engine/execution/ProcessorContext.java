package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Processor;

record ProcessorContext(String vertexName, int processorIndex, int parallelism, JobMetrics metrics) implements Processor.Context {

    @Override
    public Counter counter(String name) {
        return metrics.register(vertexName, name);
    }
}
