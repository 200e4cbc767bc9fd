package io.fournines.engine.execution;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the cooperative workers' time goes, by sampling: now and then it tells each tasklet a worker
 * serves whether that worker is in its call right now ({@link Tasklet#sampled}), with the time since
 * the previous sample, which the sample stands for. Timing every call instead would add two clock
 * reads to each of millions of calls a second; a sample costs the workers one opaque store per call.
 * The intervals are drawn uniformly from 10 to 30 ms, independently of what the samples find: work
 * that comes in bursts every slide (10 or 20 ms) would be found at the same phase each time by a
 * fixed period, always busy or never (a trades run's window stages read 0.5 % busy at a core's worth
 * of work), and intervals that depended on what was found would weight busy and idle stretches
 * unevenly at their edges.
 */
final class TaskletSampler implements Runnable {

    static final long MEAN_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

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
        long last = System.nanoTime();
        while (!stopped) {
            long due = last + MEAN_INTERVAL_NANOS / 2 + ThreadLocalRandom.current().nextLong(MEAN_INTERVAL_NANOS);
            for (long now = System.nanoTime(); now < due; now = System.nanoTime()) {
                LockSupport.parkNanos(this, due - now);  // again if woken early
                if (stopped) {
                    return;
                }
            }
            long now = System.nanoTime();
            sampleOnce(TimeUnit.NANOSECONDS.toMicros(now - last));
            last = now;
        }
    }

    /** One sample standing for the {@code micros} before it. */
    void sampleOnce(long micros) {
        for (Worker worker : workers) {
            Tasklet running = worker.runningNow();
            for (Tasklet tasklet : worker.serving()) {
                tasklet.sampled(tasklet == running, micros);
            }
        }
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
