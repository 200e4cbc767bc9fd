package io.fournines.engine.pipeline;

import io.fournines.engine.core.Processor;
import io.fournines.engine.processor.ForEachSinkP;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** The built-in sinks. */
public final class Sinks {

    private Sinks() {
    }

    /** Adds every item to the list; all instances share it, so adds are synchronised on it. */
    public static <T> Sink<T> list(List<? super T> target) {
        return forEach("list", item -> {
            synchronized (target) {
                target.add(item);
            }
        });
    }

    /** Drops every item: for benchmarks that measure the pipeline, not the output. */
    public static <T> Sink<T> discard() {
        return forEach("discard", item -> { });
    }

    /** Hands every item to {@code consumer}, which all instances share: it must be thread-safe. */
    public static <T> Sink<T> forEach(String name, Consumer<? super T> consumer) {
        return new Sink<>(name, () -> new ForEachSinkP(consumer));
    }

    /** A sink made of custom processors, one per instance (latency recorders, connectors). */
    public static <T> Sink<T> fromProcessor(String name, Supplier<? extends Processor> processors) {
        return new Sink<>(name, processors);
    }
}
