package io.fournines.engine.cluster;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When a member counts as lost by its silence, and when this member was itself paused, from the
 * times heartbeats were heard and sent. A member silent for the failure timeout is lost. A member
 * whose own heartbeat did not run for about the failure timeout (SIGSTOP, a long GC pause, a frozen
 * VM) has been dropped by the others, or may be any moment: they wait the failure timeout from the
 * last heartbeat they heard, sent up to one interval before the pause, and check once an interval.
 * No I/O, times given by the caller.
 */
final class FailureDetector {

    private final long failureTimeoutNanos;
    private final long pauseThresholdNanos;
    private final AtomicLongArray lastHeardNanos;
    /** When this member's heartbeat last ran (the I/O thread only). */
    private long lastTickNanos;

    FailureDetector(int size, long heartbeatMillis, long failureTimeoutMillis, long nowNanos) {
        this.failureTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(failureTimeoutMillis);
        this.pauseThresholdNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(failureTimeoutMillis / 2, failureTimeoutMillis - 2 * heartbeatMillis));
        this.lastHeardNanos = new AtomicLongArray(size);
        this.lastTickNanos = nowNanos;
    }

    /** Something came from {@code member}. */
    void heard(int member, long nowNanos) {
        lastHeardNanos.set(member, nowNanos);
    }

    /** How long {@code member} has been silent if past the failure timeout; 0 otherwise. */
    long silentPastTimeout(int member, long nowNanos) {
        long silent = nowNanos - lastHeardNanos.get(member);
        return silent > failureTimeoutNanos ? silent : 0;
    }

    /**
     * Before acting on any loss, and at each heartbeat: how long this member was paused, if long
     * enough that the others may have dropped it (the pause then counts as over); 0 otherwise.
     */
    long pausedPastThreshold(long nowNanos) {
        long paused = nowNanos - lastTickNanos;
        if (paused <= pauseThresholdNanos) {
            return 0;
        }
        lastTickNanos = nowNanos;
        return paused;
    }

    /** The heartbeat ran. */
    void ticked(long nowNanos) {
        lastTickNanos = nowNanos;
    }
}
