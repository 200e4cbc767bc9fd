package io.fournines.engine.execution;

/**
 * How long an idle worker parks. When a tasklet has reported a deadline (a rate-controlled source's
 * next items), until that deadline, at most the maximum: everything else that can give the worker
 * work wakes it by signal, so there is nothing to poll for meanwhile. Without a deadline, the park
 * doubles from the minimum to the maximum over consecutive idle rounds, polling for anything that
 * is not signalled.
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

    /** How long to park now, given the earliest tasklet deadline (Long.MAX_VALUE: none). */
    long nextPark(long nowNanos, long earliestDeadlineNanos) {
        if (earliestDeadlineNanos != Long.MAX_VALUE) {
            return Math.max(0, Math.min(maxParkNanos, earliestDeadlineNanos - nowNanos));
        }
        long park = nextParkNanos;
        nextParkNanos = Math.min(maxParkNanos, nextParkNanos << 1);
        return park;
    }

    void reset() {
        nextParkNanos = minParkNanos;
    }
}
