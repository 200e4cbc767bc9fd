package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.processor.MapStatefulP.StatefulMapFn;
import io.fournines.engine.processor.SlidingWindowP.WindowResultFn;
import io.fournines.engine.window.WindowDefinition;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * One step of a pipeline as the user wrote it, before planning. The planner turns transforms into
 * vertices: several stateless ones may share a vertex, an aggregation becomes two.
 */
abstract sealed class Transform permits Transform.Source, Transform.Stateless, Transform.GroupAggregate,
        Transform.WindowAggregate, Transform.MapStateful, Transform.HashJoin, Transform.SinkTransform {

    final String name;
    final List<Transform> upstream;
    final List<Transform> downstream = new ArrayList<>();

    Transform(String name, List<Transform> upstream) {
        this.name = name;
        this.upstream = upstream;
        for (Transform t : upstream) {
            t.downstream.add(this);
        }
    }

    static final class Source extends Transform {
        /** Makes the source's processors for what the planner decided of it. */
        final Function<SourcePlan, Supplier<? extends Processor>> processorsFn;
        ToLongFunction<?> timestampFn;
        long allowedLag;

        Source(String name, Function<SourcePlan, Supplier<? extends Processor>> processorsFn) {
            super(name, List.of());
            this.processorsFn = processorsFn;
        }
    }

    /** A map (null result drops the item; filter is a map) or, with {@code flat}, a flatMap. */
    static final class Stateless extends Transform {
        final Function<Object, ?> fn;
        final boolean flat;

        @SuppressWarnings("unchecked")
        Stateless(String name, Transform upstream, Function<?, ?> fn, boolean flat) {
            super(name, List.of(upstream));
            this.fn = (Function<Object, ?>) fn;
            this.flat = flat;
        }

        @SuppressWarnings("unchecked")
        Traverser<Object> traverse(Object item) {
            return (Traverser<Object>) fn.apply(item);
        }
    }

    /** Group by key (a constant key for a global aggregate) and aggregate a bounded input. */
    static final class GroupAggregate extends Transform {
        final Function<?, ?> keyFn;
        final boolean keyed;
        final AggregateOperation<?, ?, ?> operation;
        final BiFunction<?, ?, ?> outputFn;

        GroupAggregate(Transform upstream, Function<?, ?> keyFn, boolean keyed, AggregateOperation<?, ?, ?> operation, BiFunction<?, ?, ?> outputFn) {
            super(keyed ? "aggregate-by-key" : "aggregate", List.of(upstream));
            this.keyFn = keyFn;
            this.keyed = keyed;
            this.operation = operation;
            this.outputFn = outputFn;
        }
    }

    /**
     * A window aggregate per key (or over all items). With {@code overKeys}, each window's per-key
     * sums are then aggregated over the keys, and {@code outputFn} makes that one result per window.
     */
    static final class WindowAggregate extends Transform {
        final Function<?, ?> keyFn;
        final boolean keyed;
        final ToLongFunction<?> timestampFn;
        final WindowDefinition window;
        final AggregateOperation<?, ?, ?> operation;
        final OverKeysOperation<?, ?> overKeys;
        final WindowResultFn outputFn;

        WindowAggregate(Transform upstream, Function<?, ?> keyFn, boolean keyed, ToLongFunction<?> timestampFn, WindowDefinition window,
                        AggregateOperation<?, ?, ?> operation, OverKeysOperation<?, ?> overKeys, WindowResultFn outputFn) {
            super(window.size() == window.slide() ? "tumbling-window" : "sliding-window", List.of(upstream));
            this.keyFn = keyFn;
            this.keyed = keyed;
            this.timestampFn = timestampFn;
            this.window = window;
            this.operation = operation;
            this.overKeys = overKeys;
            this.outputFn = outputFn;
        }
    }

    static final class MapStateful extends Transform {
        final Function<?, ?> keyFn;
        final Supplier<?> createStateFn;
        final StatefulMapFn<?, ?, ?, ?> mapFn;
        final boolean expiring;

        MapStateful(Transform upstream, Function<?, ?> keyFn, Supplier<?> createStateFn, StatefulMapFn<?, ?, ?, ?> mapFn, boolean expiring) {
            super("map-stateful", List.of(upstream));
            this.keyFn = keyFn;
            this.createStateFn = createStateFn;
            this.mapFn = mapFn;
            this.expiring = expiring;
        }
    }

    /** upstream.get(0) is the stream side, upstream.get(1) the build side. */
    static final class HashJoin extends Transform {
        final JoinClause<?, ?, ?> clause;
        final BiFunction<?, ?, ?> mapFn;
        final boolean inner;

        HashJoin(Transform stream, Transform build, JoinClause<?, ?, ?> clause, BiFunction<?, ?, ?> mapFn, boolean inner) {
            super(inner ? "inner-hash-join" : "hash-join", List.of(stream, build));
            this.clause = clause;
            this.mapFn = mapFn;
            this.inner = inner;
        }
    }

    static final class SinkTransform extends Transform {
        final Supplier<? extends Processor> processors;

        SinkTransform(Transform upstream, Sink<?> sink) {
            super("sink(" + sink.name() + ")", List.of(upstream));
            this.processors = sink.processors();
        }
    }
}
