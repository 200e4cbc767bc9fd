package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.GlobalKey;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;

/** A windowed stream stage without a key: one result per window over all items. */
public final class StageWithWindow<T> {

    private final StreamStage<T> stage;
    private final WindowDefinition window;

    StageWithWindow(StreamStage<T> stage, WindowDefinition window) {
        this.stage = stage;
        this.window = window;
    }

    /** One result per window that had items; the final combine runs on one instance. */
    @SuppressWarnings("unchecked")
    public <R> StreamStage<WindowResult<R>> aggregate(AggregateOperation<? super T, ?, ? extends R> operation) {
        return stage.aggregateWindow(item -> GlobalKey.INSTANCE, false, window, operation, null,
                (start, end, key, result) -> new WindowResult<>(start, end, (R) result), WindowResult::end);
    }
}
