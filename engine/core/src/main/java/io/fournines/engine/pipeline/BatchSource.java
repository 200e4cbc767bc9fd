package io.fournines.engine.pipeline;

import io.fournines.engine.core.Processor;

import java.util.function.Supplier;

/** A bounded source: its processors emit everything and complete. */
public record BatchSource<T>(String name, Supplier<? extends Processor> processors) {
}
