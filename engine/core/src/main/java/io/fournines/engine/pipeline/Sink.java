package io.fournines.engine.pipeline;

import io.fournines.engine.core.Processor;

import java.util.function.Supplier;

/** Where a pipeline writes: a name and the processors that do the writing. */
public record Sink<T>(String name, Supplier<? extends Processor> processors) {
}
