package io.fournines.engine.dag;

import io.fournines.engine.core.Processor;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A node of the DAG: a name, and a supplier that makes one processor per instance. By default the
 * vertex runs one instance on every worker, so the whole DAG is deployed on each core.
 */
public final class Vertex {

    /** Local parallelism meaning "one instance per cooperative worker". */
    public static final int DEFAULT_PARALLELISM = -1;

    private final String name;
    private final Supplier<? extends Processor> processorSupplier;
    private int localParallelism = DEFAULT_PARALLELISM;

    Vertex(String name, Supplier<? extends Processor> processorSupplier) {
        this.name = Objects.requireNonNull(name, "name");
        this.processorSupplier = Objects.requireNonNull(processorSupplier, "processorSupplier");
    }

    public String name() {
        return name;
    }

    /** Called once per instance; must return a new processor each time. */
    public Supplier<? extends Processor> processorSupplier() {
        return processorSupplier;
    }

    public int localParallelism() {
        return localParallelism;
    }

    /** How many instances run on a member with {@code cooperativeWorkers} workers: the fixed number, or one per worker. */
    public int parallelismOn(int cooperativeWorkers) {
        return localParallelism == DEFAULT_PARALLELISM ? cooperativeWorkers : localParallelism;
    }

    /** Fixes how many instances run; {@link #DEFAULT_PARALLELISM} for one per worker. */
    public Vertex localParallelism(int localParallelism) {
        if (localParallelism < 1 && localParallelism != DEFAULT_PARALLELISM) {
            throw new IllegalArgumentException("vertex '" + name + "': localParallelism must be >= 1 or DEFAULT_PARALLELISM, got " + localParallelism);
        }
        this.localParallelism = localParallelism;
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
