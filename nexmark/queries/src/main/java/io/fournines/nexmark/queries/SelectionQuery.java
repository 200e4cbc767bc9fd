package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.EventSelection;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Q0, Q1 or Q2 on the engine: the query's {@link EventSelection} as one filter and one map, which
 * the planner fuses into a single vertex.
 */
final class SelectionQuery<R> implements PerEventQuery<R> {

    private final EventSelection<R> selection;

    SelectionQuery(EventSelection<R> selection) {
        this.selection = selection;
    }

    @Override
    public <T, O> StreamStage<O> attach(StreamStage<T> items, Function<? super T, ? extends Event> eventOf,
                                        BiFunction<? super T, ? super R, ? extends O> withResult) {
        return items.filter(item -> selection.selects(eventOf.apply(item)))
                    .map(item -> withResult.apply(item, selection.result(eventOf.apply(item))));
    }
}
