package io.fournines.loadgen;

import java.time.Instant;

/**
 * The open-loop schedule all sender threads share: event i is due at {@code t0 + i / rate}, on the
 * monotonic clock, and carries that instant as epoch nanoseconds. t0 is now, or a given wall-clock
 * instant (a later one is waited for; events of an earlier one are overdue at once).
 */
final class Schedule {

    private final double nanosPerEvent;
    private final long startNanos;
    private final long startEpochNanos;

    /** @param startEpochNanos t0 as epoch nanoseconds; 0 for now */
    Schedule(double eventsPerSecond, long startEpochNanos) {
        this.nanosPerEvent = 1e9 / eventsPerSecond;
        long[] pair = clockPair();
        this.startEpochNanos = startEpochNanos == 0 ? pair[1] : startEpochNanos;
        this.startNanos = pair[0] + (this.startEpochNanos - pair[1]);
    }

    long startNanos() {
        return startNanos;
    }

    long dueNanos(long sequence) {
        return startNanos + (long) (sequence * nanosPerEvent);
    }

    long epochNanos(long dueNanos) {
        return startEpochNanos + (dueNanos - startNanos);
    }

    /** nanoTime and the wall clock at one instant: the midpoint of a nanoTime bracket around a warmed-up wall-clock read. */
    private static long[] clockPair() {
        Instant.now();  // a JVM's first wall-clock read can take milliseconds
        long before = System.nanoTime();
        Instant now = Instant.now();
        long after = System.nanoTime();
        return new long[] {before + (after - before) / 2, now.getEpochSecond() * 1_000_000_000L + now.getNano()};
    }
}
