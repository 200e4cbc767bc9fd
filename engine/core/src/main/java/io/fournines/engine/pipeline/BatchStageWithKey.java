package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.processor.MapStatefulP.StatefulMapFn;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/** A batch stage with a grouping key: aggregations and state are per key. */
public final class BatchStageWithKey<T, K> {

    private final BatchStage<T> stage;
    private final Function<? super T, ? extends K> keyFn;

    BatchStageWithKey(BatchStage<T> stage, Function<? super T, ? extends K> keyFn) {
        this.stage = stage;
        this.keyFn = keyFn;
    }

    /** One {@code (key, result)} entry per distinct key, aggregated in two stages. */
    public <R> BatchStage<Map.Entry<K, R>> aggregate(AggregateOperation<? super T, ?, ? extends R> operation) {
        BiFunction<K, R, Map.Entry<K, R>> entry = SimpleImmutableEntry::new;
        return new BatchStage<>(stage.pipeline, stage.pipeline.add(new Transform.GroupAggregate(stage.transform, keyFn, true, operation, entry)));
    }

    /** Maps each item with the mutable state of its key; a null result emits nothing. */
    public <S, R> BatchStage<R> mapStateful(Supplier<? extends S> createStateFn, StatefulMapFn<? super S, ? super K, ? super T, ? extends R> mapFn) {
        return new BatchStage<>(stage.pipeline, stage.pipeline.add(new Transform.MapStateful(stage.transform, keyFn, createStateFn, mapFn, false)));
    }
}
