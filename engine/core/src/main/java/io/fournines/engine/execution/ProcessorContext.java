package io.fournines.engine.execution;

import io.fournines.engine.core.Processor;

record ProcessorContext(String vertexName, int processorIndex, int parallelism, int[] ownedPartitions,
                        int partitionCount) implements Processor.Context {
}
