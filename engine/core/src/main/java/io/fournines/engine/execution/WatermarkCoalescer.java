package io.fournines.engine.execution;

import java.util.Arrays;

/**
 * Merges the watermarks of several inputs into one: the minimum over the inputs that are neither
 * idle nor done, emitted only when it rises. An idle input does not hold the others back; when every
 * remaining input is idle, the highest watermark seen is emitted and then the idle marker, so the
 * consumer learns that its whole input has gone quiet.
 *
 * <p>Used twice, as in Jet: across the queues of one edge, and across the edges of one processor.
 */
final class WatermarkCoalescer {

    /** {@link #next()} has nothing to emit. */
    static final long NONE = Long.MIN_VALUE;
    /** {@link #next()} asks to emit the idle marker. */
    static final long IDLE = Long.MAX_VALUE;

    private final long[] watermarks;
    private final boolean[] idle;
    private final boolean[] done;
    private long lastEmitted = Long.MIN_VALUE;
    private long highestSeen = Long.MIN_VALUE;
    private boolean idleEmitted;

    WatermarkCoalescer(int inputCount) {
        watermarks = new long[inputCount];
        Arrays.fill(watermarks, Long.MIN_VALUE);
        idle = new boolean[inputCount];
        done = new boolean[inputCount];
    }

    /** Input {@code i} sent watermark {@code timestamp}, or {@link #IDLE}. */
    void observe(int i, long timestamp) {
        if (timestamp == IDLE) {
            idle[i] = true;
            return;
        }
        if (timestamp <= watermarks[i] && !idle[i]) {
            throw new IllegalStateException("watermark went back on input " + i + ": " + timestamp + " after " + watermarks[i]);
        }
        idle[i] = false;
        watermarks[i] = timestamp;
        highestSeen = Math.max(highestSeen, timestamp);
    }

    /** Input {@code i} will send nothing more. */
    void inputDone(int i) {
        done[i] = true;
    }

    /** The next watermark to emit, {@link #IDLE}, or {@link #NONE}; marks it as emitted. */
    long next() {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        boolean anyIdle = false;
        for (int i = 0; i < watermarks.length; i++) {
            if (done[i]) {
                continue;
            }
            if (idle[i]) {
                anyIdle = true;
            } else {
                anyActive = true;
                min = Math.min(min, watermarks[i]);
            }
        }
        if (anyActive) {
            if (min > lastEmitted) {
                lastEmitted = min;
                idleEmitted = false;
                return min;
            }
            if (idleEmitted && min != Long.MIN_VALUE) {
                // An input came back from idle: tell the consumer its input is active again.
                idleEmitted = false;
                return lastEmitted;
            }
            return NONE;
        }
        if (!anyIdle) {
            return NONE;
        }
        if (highestSeen > lastEmitted) {
            lastEmitted = highestSeen;
            return highestSeen;
        }
        if (!idleEmitted) {
            idleEmitted = true;
            return IDLE;
        }
        return NONE;
    }
}
