package io.fournines.engine.processor;

import java.util.function.ToLongFunction;

/**
 * How a source derives watermarks from its items' timestamps: the highest timestamp minus the
 * allowed lag, in steps of a granularity (the windows' slide). Immutable and shared by a source's
 * instances; each instance makes its own {@link WatermarkGenerator}, since each sees different items.
 */
public record WatermarkPolicy(ToLongFunction<?> timestampFn, long allowedLag, long granularity) {

    public WatermarkPolicy {
        if (allowedLag < 0 || granularity < 1) {
            throw new IllegalArgumentException("allowedLag must be >= 0 and granularity >= 1, got " + allowedLag + " and " + granularity);
        }
    }

    public WatermarkGenerator newGenerator() {
        return new WatermarkGenerator(timestampFn, allowedLag, granularity);
    }
}
