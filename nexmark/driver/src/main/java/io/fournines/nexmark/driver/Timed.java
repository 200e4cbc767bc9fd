package io.fournines.nexmark.driver;

/**
 * An event, or a per-event query's result, with the exact time its event was due in the open-loop
 * schedule, so per-event latency is measured to the nanosecond schedule rather than the
 * millisecond {@code dateTime}.
 */
public record Timed<T>(T item, long scheduledEpochNanos) {
}
