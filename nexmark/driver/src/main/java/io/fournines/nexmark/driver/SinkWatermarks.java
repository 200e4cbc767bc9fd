package io.fournines.nexmark.driver;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When windows are complete at the sinks, the one rule for every engine: a window is complete once
 * every sink instance of the execution has passed its end, because its results may reach any of
 * them. An instance whose input has ended no longer holds the others back; once every instance
 * has ended, the answer is {@link #ALL_ENDED}: these sinks hold nothing back, yet no window is
 * complete because of it (the end of an input is not the passing of time). Thread-safe.
 */
public final class SinkWatermarks {

    /** Returned while no window is complete. */
    public static final long NONE = Long.MIN_VALUE;
    /** Returned once every instance's input has ended. */
    public static final long ALL_ENDED = Long.MAX_VALUE;

    private final AtomicLongArray byInstance;
    private final AtomicIntegerArray ended;

    public SinkWatermarks(int instances) {
        byInstance = new AtomicLongArray(instances);
        ended = new AtomicIntegerArray(instances);
        for (int i = 0; i < instances; i++) {
            byInstance.set(i, NONE);
        }
    }

    public int instances() {
        return byInstance.length();
    }

    /**
     * Instance {@code i} has passed {@code watermark} (a lower one than it passed before changes
     * nothing); returns the end of the latest complete window, {@link #NONE} or {@link #ALL_ENDED}.
     */
    public long advance(int i, long watermark) {
        byInstance.accumulateAndGet(checked(i), watermark, Math::max);
        return complete();
    }

    /** Instance {@code i}'s input has ended; returns as {@link #advance}. */
    public long ended(int i) {
        ended.set(checked(i), 1);
        return complete();
    }

    private long complete() {
        long min = Long.MAX_VALUE;
        boolean anyOpen = false;
        for (int j = 0; j < byInstance.length(); j++) {
            if (ended.get(j) == 0) {
                anyOpen = true;
                min = Math.min(min, byInstance.get(j));
            }
        }
        return anyOpen ? min : ALL_ENDED;
    }

    private int checked(int i) {
        if (i < 0 || i >= byInstance.length()) {
            throw new IllegalStateException("sink instance " + i + " of a sink sized for " + byInstance.length());
        }
        return i;
    }
}
