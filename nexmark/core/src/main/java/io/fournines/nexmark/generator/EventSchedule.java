package io.fournines.nexmark.generator;

/**
 * The open-loop schedule: event {@code i} is due {@code i / rate} seconds after {@code t0}, whenever
 * it is really sent. Offsets are exact floors, computed without the overflow of {@code i * 1e9}
 * (which would wrap after 2.5 hours at 1 M events/s).
 */
public final class EventSchedule {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MILLIS_PER_SECOND = 1_000L;

    /** One event per nanosecond; also keeps {@code remainder * 1e9} (remainder < rate) inside a long. */
    public static final long MAX_RATE = NANOS_PER_SECOND;

    private final long rate;

    /** @param rate events per second, from 1 to 10^9 (one event per nanosecond) */
    public EventSchedule(long rate) {
        if (rate <= 0 || rate > MAX_RATE) {
            throw new IllegalArgumentException("rate must be between 1 and " + MAX_RATE + " events/s, got " + rate);
        }
        this.rate = rate;
    }

    /** Nanoseconds from {@code t0} to the scheduled time of event {@code eventId}, rounded down. */
    public long offsetNanos(long eventId) {
        return offset(eventId, NANOS_PER_SECOND);
    }

    /** Milliseconds from {@code t0} to the scheduled time of event {@code eventId}, rounded down. */
    public long offsetMillis(long eventId) {
        return offset(eventId, MILLIS_PER_SECOND);
    }

    private long offset(long eventId, long unitsPerSecond) {
        long seconds = eventId / rate;
        long remainder = eventId - seconds * rate;
        return seconds * unitsPerSecond + remainder * unitsPerSecond / rate;
    }
}
