package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;

import java.util.function.Function;
import java.util.function.ToLongFunction;

/** A keyed, windowed stream stage: ready to aggregate per key and window. */
public final class StageWithKeyAndWindow<T, K> {

    private final StreamStage<T> stage;
    private final Function<? super T, ? extends K> keyFn;
    private final WindowDefinition window;

    StageWithKeyAndWindow(StreamStage<T> stage, Function<? super T, ? extends K> keyFn, WindowDefinition window) {
        this.stage = stage;
        this.keyFn = keyFn;
        this.window = window;
    }

    /**
     * One result per key and window that had items, emitted when the watermark passes the window's
     * end. Two stages: accumulate per frame on every core, combine on the key's owner.
     */
    @SuppressWarnings("unchecked")
    public <R> StreamStage<KeyedWindowResult<K, R>> aggregate(AggregateOperation<? super T, ?, ? extends R> operation) {
        return stage.aggregateWindow(keyFn, true, window, operation, null,
                (start, end, key, result) -> new KeyedWindowResult<>(start, end, (K) key, (R) result), KeyedWindowResult::end);
    }

    /**
     * Sums {@code valueFn} per long key and window, then aggregates each window's (key, sum) pairs
     * over all keys with {@code overKeys}: one result per window that had items, with no object per
     * key (a hot-items query's per-window maximum). Three stages: accumulate per frame on every
     * core, slide the keys' sums on their owner and fold them into one partial per window, combine
     * the partials on one instance. Needs {@link StreamStage#groupingLongKey}.
     */
    @SuppressWarnings("unchecked")
    public <R> StreamStage<WindowResult<R>> aggregateSumsOverKeys(ToLongFunction<? super T> valueFn, OverKeysOperation<?, ? extends R> overKeys) {
        if (!(keyFn instanceof LongKeyFn)) {
            throw new IllegalStateException("an aggregate over keys takes long keys: group with groupingLongKey(...)");
        }
        long size = window.size();
        return stage.aggregateWindow(keyFn, true, window, AggregateOperations.summingLong(valueFn), overKeys,
                (start, end, key, result) -> new WindowResult<>(end - size, end, (R) result), WindowResult::end);
    }
}
