package io.fournines.engine.pipeline;

import io.fournines.engine.core.Traverser;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/** What batch and stream stages share: building the transforms behind their fluent methods. */
abstract class AbstractStage<T> {

    final Pipeline pipeline;
    final Transform transform;

    AbstractStage(Pipeline pipeline, Transform transform) {
        this.pipeline = pipeline;
        this.transform = transform;
    }

    final Transform mapTransform(Function<? super T, ?> mapFn) {
        Objects.requireNonNull(mapFn, "mapFn");
        return pipeline.add(new Transform.Stateless("map", transform, mapFn, false));
    }

    final Transform filterTransform(Predicate<? super T> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        Function<T, T> keepOrDrop = item -> predicate.test(item) ? item : null;
        return pipeline.add(new Transform.Stateless("filter", transform, keepOrDrop, false));
    }

    final Transform flatMapTransform(Function<? super T, ? extends Traverser<?>> flatMapFn) {
        Objects.requireNonNull(flatMapFn, "flatMapFn");
        return pipeline.add(new Transform.Stateless("flatMap", transform, flatMapFn, true));
    }

    final Transform hashJoinTransform(BatchStage<?> buildSide, JoinClause<?, ?, ?> clause, BiFunction<?, ?, ?> mapFn, boolean inner) {
        if (buildSide.pipeline != pipeline) {
            throw new IllegalArgumentException("the build side of a hash join must come from the same pipeline");
        }
        return pipeline.add(new Transform.HashJoin(transform, buildSide.transform, clause, mapFn, inner));
    }

    /** Ends the stage in a sink. */
    public final void writeTo(Sink<? super T> sink) {
        pipeline.add(new Transform.SinkTransform(transform, sink));
    }
}
