package io.fournines.nexmark.driver;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The lowest watermark over all sink instances: a window is complete only when every instance has
 * passed its end, because its results may reach any of them.
 */
final class SinkWatermarks {
    private final AtomicLongArray byInstance;

    SinkWatermarks(int instances) {
        byInstance = new AtomicLongArray(instances);
        for (int i = 0; i < instances; i++) {
            byInstance.set(i, Long.MIN_VALUE);
        }
    }

    /** Sets instance {@code i}'s watermark; returns the minimum over all instances. */
    long advance(int i, long watermark) {
        if (i >= byInstance.length()) {
            throw new IllegalStateException("sink instance " + i + " of a sink sized for " + byInstance.length());
        }
        byInstance.accumulateAndGet(i, watermark, Math::max);
        long min = Long.MAX_VALUE;
        for (int j = 0; j < byInstance.length(); j++) {
            min = Math.min(min, byInstance.get(j));
        }
        return min;
    }
}
