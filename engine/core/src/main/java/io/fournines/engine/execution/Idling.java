package io.fournines.engine.execution;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What a cooperative worker does after a round in which no tasklet made progress
 * ({@link ExecutionConfig#idling()}). Only {@link #PARK_BACKOFF} arms the worker's parker, so only
 * it is woken by producers and deadlines; the others poll, as Jet's workers do.
 */
public enum Idling {

    /** The engine's own: parks until the earliest tasklet deadline, or with exponential backoff, woken by signal ({@link DeadlineParking}). */
    PARK_BACKOFF,
    /** Never parks: lowest wake-up latency, a whole core per worker whatever the load. */
    BUSY_SPIN,
    /** Jet's default: Agrona's backoff with Jet's cooperative parameters, no spins or yields, parks of 25 µs doubling to 500 µs. */
    JET_BACKOFF;

    /** Jet's {@code hazelcast.jet.idle.cooperative.min.microseconds} and {@code .max.microseconds} defaults. */
    static final long JET_MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(25);
    static final long JET_MAX_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    /** As scenario files spell it: {@code park-backoff}, {@code busy-spin}, {@code jet-backoff}. */
    public String spelled() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The idling spelled {@code spelled}; IllegalArgumentException naming the choices if there is none. */
    public static Idling fromSpelled(String spelled) {
        for (Idling idling : values()) {
            if (idling.spelled().equals(spelled)) {
                return idling;
            }
        }
        throw new IllegalArgumentException("idling must be one of park-backoff, busy-spin, jet-backoff; is \"" + spelled + "\"");
    }

    /** A worker's strategy; {@code earliestDeadline} and the park bounds matter to {@link #PARK_BACKOFF} only. */
    IdleStrategy newStrategy(WorkerParker parker, LongSupplier earliestDeadline, long minParkNanos, long maxParkNanos) {
        return switch (this) {
            case PARK_BACKOFF -> new DeadlineParking(parker, earliestDeadline, new IdleBackoff(minParkNanos, maxParkNanos));
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case JET_BACKOFF -> new BackoffIdleStrategy(0, 0, JET_MIN_PARK_NANOS, JET_MAX_PARK_NANOS);
        };
    }
}
