package io.fournines.engine.cluster;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When a member counts as lost by its silence, and when this member was itself paused. A member
 * silent for the failure timeout is lost. A member that did not run for about the failure timeout
 * (SIGSTOP, a long GC pause, a frozen VM) has been dropped by the others, or may be any moment: they
 * wait the failure timeout from the last heartbeat they heard, sent up to one interval before the
 * pause, and check once an interval. Whether this member ran is told by a sentinel thread that
 * does nothing but {@link #ticked tick} every heartbeat interval: the view thread's own heartbeat
 * can run late because the machine is busy, which is no pause, and took for one it dropped a
 * healthy member from its jobs. A gap either the sentinel saw when it ticked or the view thread
 * sees since the sentinel's last tick counts, once.
 *
 * <p>The view thread ({@link Plane#VIEW}) judges silences only in a check that came on time ({@link #onTime}): one that
 * ran late found the thread starved (a busy machine), and the frames it has not read yet may be
 * waiting in its sockets; the next check, after it read them, judges, late or not (a thread starved
 * for good still detects a silent member, one interval later). No I/O, times given by the caller.
 */
final class FailureDetector {

    private final long failureTimeoutNanos;
    private final long pauseThresholdNanos;
    private final long heartbeatNanos;
    /** When the view thread last checked, and whether that check put its judgement off; its thread only. */
    private long lastCheckNanos;
    private boolean deferred;
    private final AtomicLongArray lastHeardNanos;
    /** When the sentinel last ticked. */
    private final AtomicLong lastTickNanos;
    /** The longest gap the sentinel saw between its ticks and nobody has been told of yet; 0 if none. */
    private final AtomicLong pendingPauseNanos = new AtomicLong();

    FailureDetector(int size, long heartbeatMillis, long failureTimeoutMillis, long nowNanos) {
        this.failureTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(failureTimeoutMillis);
        this.pauseThresholdNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(failureTimeoutMillis / 2, failureTimeoutMillis - 2 * heartbeatMillis));
        this.lastHeardNanos = new AtomicLongArray(size);
        this.lastTickNanos = new AtomicLong(nowNanos);
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(heartbeatMillis);
        this.lastCheckNanos = nowNanos;
    }

    /**
     * The view thread's check, every heartbeat interval after the previous one ended: whether silences
     * may be judged now. Not when it came late (more than two intervals after the previous), unless
     * the previous one was put off already.
     */
    boolean onTime(long nowNanos) {
        long since = nowNanos - lastCheckNanos;
        lastCheckNanos = nowNanos;
        deferred = since > 2 * heartbeatNanos && !deferred;
        return !deferred;
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
        long paused = pendingPauseNanos.getAndSet(0);
        long last = lastTickNanos.get();
        if (nowNanos - last > pauseThresholdNanos && lastTickNanos.compareAndSet(last, nowNanos)) {
            paused = Math.max(paused, nowNanos - last);  // the sentinel has not run since: it is paused with us
        }
        return paused > pauseThresholdNanos ? paused : 0;
    }

    /** The sentinel ticked (its own thread, every heartbeat interval). */
    void ticked(long nowNanos) {
        long gap = nowNanos - lastTickNanos.getAndSet(nowNanos);
        if (gap > pauseThresholdNanos) {
            pendingPauseNanos.accumulateAndGet(gap, Math::max);
        }
    }
}
