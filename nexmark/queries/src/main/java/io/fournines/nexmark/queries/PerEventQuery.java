package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Event;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A query whose every result comes from exactly one input event (Q0, Q1, Q2, Q13). It can run over
 * items that carry an event together with something else, and hand that something to the result:
 * the member driver carries each event's exact scheduled time to its latency sink, the CLI carries
 * the input line so results come out in input order.
 */
public interface PerEventQuery<R> extends NexmarkQuery<R> {

    /**
     * @param eventOf    the event an item carries
     * @param withResult the output for an item and the result its event gave
     */
    <T, O> StreamStage<O> attach(StreamStage<T> items, Function<? super T, ? extends Event> eventOf,
                                 BiFunction<? super T, ? super R, ? extends O> withResult);

    /**
     * Whether the query pairs events with each other (Q3's join): a result comes from whichever of
     * its two events reaches the join second, so results have no input order; and the pairs' halves
     * expire by event time (the events' {@code dateTime}), so on an endless stream the input must
     * carry timestamps (without them, state is kept for the job).
     */
    default boolean pairsEvents() {
        return false;
    }

    @Override
    default StreamStage<R> attach(StreamStage<Event> events) {
        return attach(events, Function.identity(), (event, result) -> result);
    }
}
