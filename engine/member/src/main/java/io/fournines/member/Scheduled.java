package io.fournines.member;

/**
 * An event, or a per-event query's result, with the exact time its event was due in the open-loop
 * schedule: latency is then measured to the nanosecond schedule rather than the millisecond
 * {@code dateTime}, which would add up to 1 ms of rounding to every value.
 */
record Scheduled<T>(T item, long scheduledEpochNanos) {
}
