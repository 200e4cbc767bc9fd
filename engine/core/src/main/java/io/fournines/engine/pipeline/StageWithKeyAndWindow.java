package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;

import java.util.function.Function;

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
        return stage.aggregateWindow(keyFn, true, window, operation,
                (start, end, key, result) -> new KeyedWindowResult<>(start, end, (K) key, (R) result), KeyedWindowResult::end);
    }
}
