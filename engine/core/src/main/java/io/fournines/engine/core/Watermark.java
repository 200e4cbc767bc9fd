package io.fournines.engine.core;

/**
 * A promise on a stream: no later item has an event time below {@link #timestamp()}.
 * {@link #IDLE} says an input has gone quiet, so it must not hold back the others.
 */
public record Watermark(long timestamp) implements ControlItem {

    public static final Watermark IDLE = new Watermark(Long.MAX_VALUE);
}
