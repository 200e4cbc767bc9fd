package io.fournines.engine.pipeline;

import java.util.function.ToLongFunction;

/** A stream source just read: say where its items' event time comes from before going on. */
public final class StreamSourceStage<T> {

    private final Pipeline pipeline;
    private final Transform.Source source;

    StreamSourceStage(Pipeline pipeline, Transform.Source source) {
        this.pipeline = pipeline;
        this.source = source;
    }

    /**
     * Event time is {@code timestampFn(item)}; the source's watermark trails the highest timestamp
     * by {@code allowedLag}, so items up to that much out of order are still on time.
     */
    public StreamStage<T> withTimestamps(ToLongFunction<? super T> timestampFn, long allowedLag) {
        if (allowedLag < 0) {
            throw new IllegalArgumentException("allowedLag must be >= 0, got " + allowedLag);
        }
        source.timestampFn = timestampFn;
        source.allowedLag = allowedLag;
        return new StreamStage<>(pipeline, source, timestampFn);
    }

    /** No event time: the stream cannot be windowed until {@link StreamStage#withTimestamps} says otherwise. */
    public StreamStage<T> withoutTimestamps() {
        return new StreamStage<>(pipeline, source, null);
    }
}
