package io.fournines.engine.core;

/**
 * Epoch time from the monotonic clock: the wall clock is read once ({@link Clocks#pair()}), so the
 * instants a batch is cut at or reported with never jump when NTP steps the wall clock mid-run.
 */
public final class EpochClock {
    private final long originNanoTime;
    private final long originEpochNanos;

    public EpochClock() {
        long[] clocks = Clocks.pair();
        originNanoTime = clocks[0];
        originEpochNanos = clocks[1];
    }

    /** The epoch instant, in nanoseconds, of a {@link System#nanoTime()} reading. */
    public long epochNanos(long nanoTime) {
        return originEpochNanos + (nanoTime - originNanoTime);
    }

    public long nowEpochNanos() {
        return epochNanos(System.nanoTime());
    }

    public long nowEpochMicros() {
        return nowEpochNanos() / 1_000;
    }
}
