package io.fournines.engine.pipeline;

import io.fournines.engine.core.Processor;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A source of a stream with event time. Its processors are made once the planner knows how to
 * generate watermarks for it and whether its items may be reused ({@link SourcePlan}).
 */
public record StreamSource<T>(String name, Function<SourcePlan, Supplier<? extends Processor>> processorsFn) {
}
