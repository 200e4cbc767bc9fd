package io.fournines.engine.execution;

/**
 * Park time after consecutive rounds without progress: doubles from a minimum to a maximum, and is
 * cut short by the earliest deadline a tasklet reported (a rate-controlled source's next item).
 */
final class IdleBackoff {

    private final long minParkNanos;
    private final long maxParkNanos;
    private long nextParkNanos;

    IdleBackoff(long minParkNanos, long maxParkNanos) {
        if (minParkNanos <= 0 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("idle park must satisfy 0 < min <= max, got min=" + minParkNanos + "ns max=" + maxParkNanos + "ns");
        }
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.nextParkNanos = minParkNanos;
    }

    /** How long to park now, given the earliest tasklet deadline; advances the backoff. */
    long nextPark(long nowNanos, long earliestDeadlineNanos) {
        long park = nextParkNanos;
        nextParkNanos = Math.min(maxParkNanos, nextParkNanos << 1);
        long untilDeadline = earliestDeadlineNanos - nowNanos;
        return Math.max(0, Math.min(park, untilDeadline));
    }

    void reset() {
        nextParkNanos = minParkNanos;
    }
}
