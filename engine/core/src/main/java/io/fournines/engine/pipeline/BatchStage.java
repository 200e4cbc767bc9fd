package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.GlobalKey;
import io.fournines.engine.core.Traverser;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/** A stage of a bounded computation: it sees all its input, then completes. */
public final class BatchStage<T> extends AbstractStage<T> {

    BatchStage(Pipeline pipeline, Transform transform) {
        super(pipeline, transform);
    }

    public <R> BatchStage<R> map(Function<? super T, ? extends R> mapFn) {
        return new BatchStage<>(pipeline, mapTransform(mapFn));
    }

    public BatchStage<T> filter(Predicate<? super T> predicate) {
        return new BatchStage<>(pipeline, filterTransform(predicate));
    }

    public <R> BatchStage<R> flatMap(Function<? super T, ? extends Traverser<R>> flatMapFn) {
        return new BatchStage<>(pipeline, flatMapTransform(flatMapFn));
    }

    public <K> BatchStageWithKey<T, K> groupingKey(Function<? super T, ? extends K> keyFn) {
        return new BatchStageWithKey<>(this, keyFn);
    }

    /** Aggregates all items into one result. */
    public <R> BatchStage<R> aggregate(AggregateOperation<? super T, ?, ? extends R> operation) {
        BiFunction<Object, R, R> resultOnly = (key, result) -> result;
        return new BatchStage<>(pipeline, pipeline.add(new Transform.GroupAggregate(transform, item -> GlobalKey.INSTANCE, false, operation, resultOnly)));
    }

    /** Joins each item with every build-side item of the same key; null when there is none. */
    public <K, B, R> BatchStage<R> hashJoin(BatchStage<B> buildSide, JoinClause<K, ? super T, ? super B> clause,
                                            BiFunction<? super T, ? super B, ? extends R> mapFn) {
        return new BatchStage<>(pipeline, hashJoinTransform(buildSide, clause, mapFn, false));
    }

    /** Like {@link #hashJoin}, but drops items with no match. */
    public <K, B, R> BatchStage<R> innerHashJoin(BatchStage<B> buildSide, JoinClause<K, ? super T, ? super B> clause,
                                                 BiFunction<? super T, ? super B, ? extends R> mapFn) {
        return new BatchStage<>(pipeline, hashJoinTransform(buildSide, clause, mapFn, true));
    }
}
