package io.fournines.nexmark.driver.latency;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The latency logs of one run, sharing a clock, a start, a warm-up end and one background thread
 * that writes every log's interval each second of wall time. Closing writes the final intervals.
 */
public final class LatencyLogs implements AutoCloseable {
    public static final long INTERVAL_MILLIS = 1_000;

    private final EpochClock clock;
    private final long startMicros;
    private final long warmupEndMicros;
    private final List<LatencyLog> logs = new CopyOnWriteArrayList<>();
    /** Null when intervals are written only on demand. */
    private final ScheduledExecutorService ticker;

    LatencyLogs(EpochClock clock, long warmupMillis, boolean tick) {
        if (warmupMillis < 0) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + warmupMillis + " ms");
        }
        this.clock = clock;
        this.startMicros = clock.nowMicros();
        this.warmupEndMicros = startMicros + warmupMillis * 1_000;
        if (tick) {
            ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "latency-log-writer");
                thread.setDaemon(true);
                return thread;
            });
            ticker.scheduleAtFixedRate(this::writeIntervals, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            ticker = null;
        }
    }

    /**
     * Starts a run now on the system clock; intervals that start within the first
     * {@code warmupMillis} are tagged warm-up. Use whole seconds so the warm-up ends on an
     * interval boundary and no measured second is tagged.
     */
    public static LatencyLogs start(long warmupMillis) {
        return new LatencyLogs(EpochClock.system(), warmupMillis, true);
    }

    /**
     * Like {@link #start}, but intervals are written only when the caller calls {@link
     * #writeIntervals()}: for a driver that samples throughput and CPU on the same tick, so every
     * series shares one timeline.
     */
    public static LatencyLogs startUnticked(long warmupMillis) {
        return new LatencyLogs(EpochClock.system(), warmupMillis, false);
    }

    /** t0 of the run in epoch microseconds: the logs' StartTime. */
    public long startMicros() {
        return startMicros;
    }

    /** The clock every log of this run measures with; sources must schedule against it too. */
    public EpochClock clock() {
        return clock;
    }

    /** Creates (or truncates) {@code file} and writes its intervals from now on. */
    public LatencyLog open(Path file) {
        LatencyLog log = new LatencyLog(file, clock, startMicros, warmupEndMicros);
        logs.add(log);
        return log;
    }

    /** Writes one interval to every log; the ticker calls it each second. */
    public void writeIntervals() {
        for (LatencyLog log : logs) {
            log.writeInterval();
        }
    }

    /** Stops the ticker, then writes each log's final interval and closes it. */
    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdown();
            try {
                ticker.awaitTermination(INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (LatencyLog log : logs) {
            log.close();
        }
    }
}
