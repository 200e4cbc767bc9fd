package io.fournines.engine.execution;

import java.util.concurrent.locks.LockSupport;

/**
 * Lets an idle worker sleep and lets producers wake it when they hand it data, so that a worker can
 * park for long stretches (cheap when idle) without adding its park time to latency.
 *
 * <p>The protocol is Dekker's: the worker arms (volatile write), runs one more full round over its
 * tasklets, and parks only if that round made no progress. A producer writes its items, issues a
 * full fence ({@link #wakeIfArmed()} is called after one) and reads the flag. Either the worker's
 * last round sees the items or the producer sees the flag.
 */
public final class WorkerParker {

    private volatile Thread thread;
    private volatile boolean armed;

    void bindTo(Thread thread) {
        this.thread = thread;
    }

    void arm() {
        armed = true;
    }

    void disarm() {
        armed = false;
    }

    /** Whether a producer's data would wake it now. */
    boolean armed() {
        return armed;
    }

    void park(long nanos) {
        LockSupport.parkNanos(this, nanos);
    }

    /** Wakes the worker if it is about to park or parked; a wake-up before it parks is not lost. */
    public void wakeIfArmed() {
        if (armed) {
            wake();
        }
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
