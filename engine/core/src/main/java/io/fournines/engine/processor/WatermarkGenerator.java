package io.fournines.engine.processor;

import java.util.function.ToLongFunction;

/**
 * One source instance's watermarks, per its {@link WatermarkPolicy}: the highest timestamp it
 * emitted minus the allowed lag, rounded down to the granularity so a watermark is sent once per
 * frame, not once per item. Not thread-safe: one per instance.
 */
public final class WatermarkGenerator {

    /** {@link #observe} has no new watermark. */
    public static final long NONE = Long.MIN_VALUE;

    private final ToLongFunction<Object> timestampFn;
    private final long allowedLag;
    private final long granularity;
    private long lastWatermark = Long.MIN_VALUE;

    @SuppressWarnings("unchecked")
    WatermarkGenerator(ToLongFunction<?> timestampFn, long allowedLag, long granularity) {
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
