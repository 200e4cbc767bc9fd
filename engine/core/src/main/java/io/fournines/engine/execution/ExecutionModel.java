package io.fournines.engine.execution;

import java.time.Duration;

/**
 * How a job's work is scheduled: the three models the Drizzle paper (SOSP '17) compares, on one engine.
 * <ul>
 *   <li>{@code CONTINUOUS}: long-running operators, every item flows on as soon as it is due (Flink, Jet).
 *   <li>{@code MICRO_BATCH}: items are cut into batches of {@code batch} (epoch-aligned: batch k holds
 *       what is due in [kB, (k+1)B)); a central scheduler launches each stage of a batch once the stage
 *       before it finished the batch, and the next batch once the whole batch is done (Spark Streaming).
 *   <li>{@code GROUP}: Drizzle's group scheduling: {@code groupSize} batches launched at once, every stage
 *       pre-scheduled (a stage takes its input as the stage before pushes it), and the scheduler waits
 *       only at the end of a group. With a {@code latencyTarget} the group size is tuned instead
 *       ({@link #tuned}): it starts at {@code groupSize} and moves between 1 and {@link #MAX_GROUP_SIZE}.
 * </ul>
 */
public record ExecutionModel(Kind kind, Duration batch, int groupSize, Duration latencyTarget) {

    public enum Kind { CONTINUOUS, MICRO_BATCH, GROUP }

    public static final ExecutionModel CONTINUOUS = new ExecutionModel(Kind.CONTINUOUS, null, 0, null);
    /** The largest group a tuned group size grows to: the paper's largest. */
    public static final int MAX_GROUP_SIZE = 100;

    public ExecutionModel {
        if (kind != Kind.CONTINUOUS) {
            if (batch == null || batch.toMillis() < 1) {
                throw new IllegalArgumentException(kind + " needs a batch of at least 1 ms, got " + batch);
            }
            if (kind == Kind.MICRO_BATCH && groupSize != 1 || groupSize < 1 || groupSize > MAX_GROUP_SIZE && latencyTarget != null) {
                throw new IllegalArgumentException(kind + " needs a group size of " + (kind == Kind.MICRO_BATCH ? "1" : "at least 1") + ", got " + groupSize);
            }
        }
        if (latencyTarget != null && (kind != Kind.GROUP || latencyTarget.toMillis() < 1)) {
            throw new IllegalArgumentException("a latency target of at least 1 ms tunes a group's size, not " + kind + "'s; got " + latencyTarget);
        }
    }

    public static ExecutionModel microBatch(Duration batch) {
        return new ExecutionModel(Kind.MICRO_BATCH, batch, 1, null);
    }

    public static ExecutionModel group(Duration batch, int groupSize) {
        return new ExecutionModel(Kind.GROUP, batch, groupSize, null);
    }

    /**
     * Group scheduling whose group size is tuned toward {@code latencyTarget} (Drizzle's AIMD), from a
     * group of one: after each group, one batch more if every batch of it was done within the target
     * of its end, half as many (at least one) if not.
     */
    public static ExecutionModel tuned(Duration batch, Duration latencyTarget) {
        return new ExecutionModel(Kind.GROUP, batch, 1, latencyTarget);
    }

    /** Whether the group size is tuned ({@link #tuned}). */
    public boolean tunesGroupSize() {
        return latencyTarget != null;
    }

    public boolean batched() {
        return kind != Kind.CONTINUOUS;
    }
}
