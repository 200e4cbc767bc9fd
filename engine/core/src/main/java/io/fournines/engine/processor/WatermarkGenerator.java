package io.fournines.engine.processor;

import java.util.function.ToLongFunction;

/**
 * Derives watermarks from the timestamps a source emits: the highest timestamp minus the allowed
 * lag, rounded down to a granularity (the windows' slide) so a watermark is sent once per frame,
 * not once per item.
 */
public final class WatermarkGenerator {

    /** {@link #observe} has no new watermark. */
    public static final long NONE = Long.MIN_VALUE;

    private final ToLongFunction<Object> timestampFn;
    private final long allowedLag;
    private final long granularity;
    private long lastWatermark = Long.MIN_VALUE;

    @SuppressWarnings("unchecked")
    public WatermarkGenerator(ToLongFunction<?> timestampFn, long allowedLag, long granularity) {
        if (allowedLag < 0 || granularity < 1) {
            throw new IllegalArgumentException("allowedLag must be >= 0 and granularity >= 1, got " + allowedLag + " and " + granularity);
        }
        this.timestampFn = (ToLongFunction<Object>) timestampFn;
        this.allowedLag = allowedLag;
        this.granularity = granularity;
    }

    /** Notes an emitted item; returns the watermark to emit after it, or {@link #NONE}. */
    public long observe(Object item) {
        long candidate = Math.floorDiv(timestampFn.applyAsLong(item) - allowedLag, granularity) * granularity;
        if (candidate > lastWatermark) {
            lastWatermark = candidate;
            return candidate;
        }
        return NONE;
    }
}
