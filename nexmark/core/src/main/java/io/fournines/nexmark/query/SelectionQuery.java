package io.fournines.nexmark.query;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Event;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A per-event query that keeps some events and maps each kept one to a result: one filter and one
 * map, which the planner fuses into a single vertex.
 */
public abstract class SelectionQuery<R> implements PerEventQuery<R> {

    public abstract boolean selects(Event event);

    /** Called only for events {@link #selects} keeps. */
    public abstract R result(Event event);

    @Override
    public final <T, O> StreamStage<O> attach(StreamStage<T> items, Function<? super T, ? extends Event> eventOf,
                                              BiFunction<? super T, ? super R, ? extends O> withResult) {
        return items.filter(item -> selects(eventOf.apply(item)))
                    .map(item -> withResult.apply(item, result(eventOf.apply(item))));
    }
}
