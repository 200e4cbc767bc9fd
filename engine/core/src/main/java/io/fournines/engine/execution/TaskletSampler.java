package io.fournines.engine.execution;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the cooperative workers' time goes, by sampling: now and then it tells each tasklet a worker
 * serves whether that worker is in its call right now ({@link Tasklet#sampled}), with the time since
 * the previous sample, which the sample stands for. Timing every call instead would add two clock
 * reads to each of millions of calls a second; a sample costs the workers one opaque store per call.
 * Samples come every {@link #BUSY_INTERVAL_NANOS} while a worker is found in a call, and back off to
 * {@link #IDLE_INTERVAL_NANOS} while none is: an idle engine's every wake-up counts against its idle
 * cost (backing off, the sampler thread took 0.05 % of a core at 1 000 events/s: engine/MEASURED.md).
 * Weighting each sample by the interval before it, which was chosen before the sample was taken,
 * keeps the shares time averages whatever the interval.
 */
final class TaskletSampler implements Runnable {

    static final long BUSY_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final long IDLE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(160);

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
        long interval = BUSY_INTERVAL_NANOS;
        while (!stopped) {
            LockSupport.parkNanos(this, last + interval - System.nanoTime());
            long now = System.nanoTime();
            if (now < last + interval) {
                continue;  // woken early (spuriously)
            }
            boolean anyRunning = sampleOnce(TimeUnit.NANOSECONDS.toMicros(now - last));
            last = now;
            interval = anyRunning ? BUSY_INTERVAL_NANOS : Math.min(2 * interval, IDLE_INTERVAL_NANOS);
        }
    }

    /** One sample standing for the {@code micros} before it; returns whether any worker was in a call. */
    boolean sampleOnce(long micros) {
        boolean anyRunning = false;
        for (Worker worker : workers) {
            Tasklet running = worker.runningNow();
            anyRunning |= running != null;
            for (Tasklet tasklet : worker.serving()) {
                tasklet.sampled(tasklet == running, micros);
            }
        }
        return anyRunning;
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
