package io.fournines.engine.pipeline;

import io.fournines.engine.processor.ExpiringState;
import io.fournines.engine.processor.MapStatefulP.StatefulMapFn;
import io.fournines.engine.window.WindowDefinition;

import java.util.function.Function;
import java.util.function.Supplier;

/** A stream stage with a grouping key: windows and state are per key. */
public final class StreamStageWithKey<T, K> {

    private final StreamStage<T> stage;
    private final Function<? super T, ? extends K> keyFn;

    StreamStageWithKey(StreamStage<T> stage, Function<? super T, ? extends K> keyFn) {
        this.stage = stage;
        this.keyFn = keyFn;
    }

    public StageWithKeyAndWindow<T, K> window(WindowDefinition window) {
        return new StageWithKeyAndWindow<>(stage, keyFn, window);
    }

    /** Maps each item with the mutable state of its key; a null result emits nothing. State lives as long as the job. */
    public <S, R> StreamStage<R> mapStateful(Supplier<? extends S> createStateFn, StatefulMapFn<? super S, ? super K, ? super T, ? extends R> mapFn) {
        return new StreamStage<>(stage.pipeline, stage.pipeline.add(new Transform.MapStateful(stage.transform, keyFn, createStateFn, mapFn, false)), null);
    }

    /**
     * {@link #mapStateful} whose states drop, as the watermark passes, what no later item can need
     * ({@link ExpiringState}); a key's state goes once it is empty. Needs timestamps upstream.
     */
    public <S extends ExpiringState, R> StreamStage<R> mapStatefulExpiring(Supplier<? extends S> createStateFn,
                                                                          StatefulMapFn<? super S, ? super K, ? super T, ? extends R> mapFn) {
        return new StreamStage<>(stage.pipeline, stage.pipeline.add(new Transform.MapStateful(stage.transform, keyFn, createStateFn, mapFn, true)), null);
    }
}
