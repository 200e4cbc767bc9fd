package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Event;

/**
 * A NEXMark query on the engine's Pipeline API: it attaches to a stream of events whose event time
 * is their {@code dateTime} and returns the stage of its results, for the caller to sink.
 *
 * @param <R> the result record; its JSON form is the query's output format
 */
public interface NexmarkQuery<R> {

    StreamStage<R> attach(StreamStage<Event> events);
}
