package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.processor.SlidingWindowP.WindowResultFn;
import io.fournines.engine.window.WindowDefinition;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A stage of an unbounded computation. It knows how to read its items' event time, if it has one:
 * a filter keeps it, while a map or flatMap makes new items, so it must be given again with
 * {@link #withTimestamps} before a window.
 */
public final class StreamStage<T> extends AbstractStage<T> {

    final ToLongFunction<? super T> timestampFn;

    StreamStage(Pipeline pipeline, Transform transform, ToLongFunction<? super T> timestampFn) {
        super(pipeline, transform);
        this.timestampFn = timestampFn;
    }

    public <R> StreamStage<R> map(Function<? super T, ? extends R> mapFn) {
        return new StreamStage<>(pipeline, mapTransform(mapFn), null);
    }

    public StreamStage<T> filter(Predicate<? super T> predicate) {
        return new StreamStage<>(pipeline, filterTransform(predicate), timestampFn);
    }

    public <R> StreamStage<R> flatMap(Function<? super T, ? extends Traverser<R>> flatMapFn) {
        return new StreamStage<>(pipeline, flatMapTransform(flatMapFn), null);
    }

    /**
     * Reads event time from the items with {@code timestampFn}. The watermarks still come from the
     * source, so the new timestamps must agree with the source's (the same instant, re-read).
     */
    public StreamStage<T> withTimestamps(ToLongFunction<? super T> timestampFn) {
        return new StreamStage<>(pipeline, transform, timestampFn);
    }

    public <K> StreamStageWithKey<T, K> groupingKey(Function<? super T, ? extends K> keyFn) {
        return new StreamStageWithKey<>(this, keyFn);
    }

    /** {@link #groupingKey} for a key that is a long: a windowed sum then boxes no key per item ({@link LongKeyFn}). */
    public StreamStageWithKey<T, Long> groupingLongKey(ToLongFunction<? super T> keyFn) {
        return new StreamStageWithKey<>(this, (LongKeyFn<T>) keyFn::applyAsLong);
    }

    /** Windows over all items together, not per key. */
    public StageWithWindow<T> window(WindowDefinition window) {
        return new StageWithWindow<>(this, window);
    }

    /** Joins each item with every item of a bounded build side with the same key; null when there is none. */
    public <K, B, R> StreamStage<R> hashJoin(BatchStage<B> buildSide, JoinClause<K, ? super T, ? super B> clause,
                                             BiFunction<? super T, ? super B, ? extends R> mapFn) {
        return new StreamStage<>(pipeline, hashJoinTransform(buildSide, clause, mapFn, false), null);
    }

    /** Like {@link #hashJoin}, but drops items with no match. */
    public <K, B, R> StreamStage<R> innerHashJoin(BatchStage<B> buildSide, JoinClause<K, ? super T, ? super B> clause,
                                                  BiFunction<? super T, ? super B, ? extends R> mapFn) {
        return new StreamStage<>(pipeline, hashJoinTransform(buildSide, clause, mapFn, true), null);
    }

    ToLongFunction<? super T> requireTimestamps(String operation) {
        if (timestampFn == null) {
            throw new IllegalStateException(operation + " needs event time, but stage '" + transform.name
                    + "' has none: call withTimestamps(...) on the source, or again after a map or flatMap");
        }
        return timestampFn;
    }

    /** Window results carry their window's last instant as event time, so a following window of the same slide closes with them. */
    static <R> StreamStage<R> windowResults(Pipeline pipeline, Transform transform, ToLongFunction<? super R> endFn) {
        return new StreamStage<>(pipeline, transform, item -> endFn.applyAsLong(item) - 1);
    }

    <R> StreamStage<R> aggregateWindow(Function<? super T, ?> keyFn, boolean keyed, WindowDefinition window,
                                       AggregateOperation<? super T, ?, ?> operation, OverKeysOperation<?, ?> overKeys,
                                       WindowResultFn outputFn,
                                       ToLongFunction<? super R> endFn) {
        ToLongFunction<? super T> ts = requireTimestamps("window aggregation");
        Transform t = pipeline.add(new Transform.WindowAggregate(transform, keyFn, keyed, ts, window, operation, overKeys, outputFn));
        return windowResults(pipeline, t, endFn);
    }
}
