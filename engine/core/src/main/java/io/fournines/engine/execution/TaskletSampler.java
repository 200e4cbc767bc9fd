package io.fournines.engine.execution;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the cooperative workers' time goes, by sampling: every {@link #INTERVAL_NANOS} it tells each
 * tasklet a worker serves whether that worker is in its call right now ({@link Tasklet#sampled}).
 * Timing every call instead would add two clock reads to each of millions of calls a second; a
 * sample costs the workers one opaque store per call. At 50 samples a second a one-second share is
 * good to about ±7 % of a core; the series over a run to much better.
 */
final class TaskletSampler implements Runnable {

    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Worker[] workers;
    private final Thread thread;
    private volatile boolean stopped;

    TaskletSampler(Worker[] workers) {
        this.workers = workers;
        this.thread = new Thread(this, "fournines-tasklet-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        long next = System.nanoTime() + INTERVAL_NANOS;
        while (!stopped) {
            LockSupport.parkNanos(this, next - System.nanoTime());
            if (System.nanoTime() < next) {
                continue;  // woken early (spuriously)
            }
            sampleOnce();
            // A late sample is not followed by catch-up ones: each counts the instant it was taken.
            next = Math.max(next + INTERVAL_NANOS, System.nanoTime() + INTERVAL_NANOS / 2);
        }
    }

    void sampleOnce() {
        for (Worker worker : workers) {
            Tasklet running = worker.runningNow();
            for (Tasklet tasklet : worker.serving()) {
                tasklet.sampled(tasklet == running);
            }
        }
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
