package io.fournines.engine.pipeline;

import io.fournines.engine.core.Processor;
import io.fournines.engine.processor.WatermarkPolicy;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A source of a stream with event time. Its processors are made once the planner knows how to
 * generate watermarks for it (null: the pipeline has no windows, so none are needed).
 */
public record StreamSource<T>(String name, Function<WatermarkPolicy, Supplier<? extends Processor>> processorsFn) {
}
