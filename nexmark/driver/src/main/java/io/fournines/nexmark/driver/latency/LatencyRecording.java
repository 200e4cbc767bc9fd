package io.fournines.nexmark.driver.latency;

/**
 * Where a run's sinks put latencies: a {@link LatencyLog}, or, for one of several jobs on a member,
 * the job's own log and the run's at once ({@link #both}).
 */
@FunctionalInterface
public interface LatencyRecording {

    /** Records one latency in microseconds. Thread-safe. */
    void recordMicros(long latencyMicros);

    /** Every value into {@code own} and into {@code merged}: one job's log, and the run's, which holds every job's values. */
    static LatencyRecording both(LatencyRecording own, LatencyRecording merged) {
        return latencyMicros -> {
            own.recordMicros(latencyMicros);
            merged.recordMicros(latencyMicros);
        };
    }
}
