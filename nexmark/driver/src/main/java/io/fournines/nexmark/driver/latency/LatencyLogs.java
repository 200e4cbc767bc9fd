package io.fournines.nexmark.driver.latency;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The latency logs of one run, sharing a clock, a start and a warm-up end. The driver writes every
 * log's interval each second ({@link #writeIntervals}), on the tick it samples throughput and CPU,
 * so every series shares one timeline. Closing writes the final intervals.
 */
public final class LatencyLogs implements AutoCloseable {

    private final EpochClock clock;
    private final long startMicros;
    private final long warmupEndMicros;
    private final List<LatencyLog> logs = new CopyOnWriteArrayList<>();

    LatencyLogs(EpochClock clock, long warmupMillis) {
        if (warmupMillis < 0) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + warmupMillis + " ms");
        }
        this.clock = clock;
        this.startMicros = clock.nowMicros();
        this.warmupEndMicros = startMicros + warmupMillis * 1_000;
    }

    /**
     * Starts a run now on the system clock; intervals that start within the first
     * {@code warmupMillis} are tagged warm-up. Use whole seconds so the warm-up ends on an
     * interval boundary and no measured second is tagged.
     */
    public static LatencyLogs start(long warmupMillis) {
        return new LatencyLogs(EpochClock.system(), warmupMillis);
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
    public LatencyLog open(Path file) throws IOException {
        LatencyLog log = new LatencyLog(file, clock, startMicros, warmupEndMicros);
        logs.add(log);
        return log;
    }

    /** Writes one interval to every log. */
    public void writeIntervals() throws IOException {
        for (LatencyLog log : logs) {
            log.writeInterval();
        }
    }

    /**
     * Values written so far to each log in {@code folder} (the run's, or one job's of several), by file
     * name: member.json's {@code hlog_values_written}.
     */
    public Map<String, Long> valuesWritten(Path folder) {
        Map<String, Long> written = new LinkedHashMap<>();
        for (LatencyLog log : logs) {
            if (folder.equals(log.path().getParent())) {
                written.put(log.path().getFileName().toString(), log.valuesWritten());
            }
        }
        return written;
    }

    /** Writes each log's final interval and closes it. */
    @Override
    public void close() throws IOException {
        for (LatencyLog log : logs) {
            log.close();
        }
    }
}
