package io.fournines.nexmark.fournines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a member fails on purpose, for {@code chaos} and the kill tests: after N events reached the
 * query's first stage on this member ({@code event:N}), or at a moment of its
 * {@link RecordingSinkP}s: after they took N results ({@code processing:N}), after they saved the
 * N-th snapshot, before the cluster's commit ({@code snapshot:N}), or just after the cluster
 * committed one, before they published it ({@code committed:N}); a query's results may all reach
 * one member's sinks (Q5's last stage runs on one member), while every member sees events. N counts
 * over the member's instances (each snapshot once per sink instance), and only while {@code
 * armed} holds. There, once, the
 * member writes the marker file, then either throws (a processor failure, which a job with a
 * guarantee restarts from) or parks the thread that got there for good: the member can no longer
 * finish a snapshot or process anything, but its connections stay up until the runner kills it.
 */
final class ChaosPoint {

    private enum Moment { NEVER, EVENT, PROCESSING, SNAPSHOT, COMMITTED }

    /** Nowhere: the member never stops. */
    static final ChaosPoint NEVER = new ChaosPoint(Moment.NEVER, Long.MAX_VALUE, false, null, () -> false);

    private final Moment moment;
    private final long at;
    private final boolean fail;
    private final Path marker;
    private final BooleanSupplier armed;
    private final AtomicLong count = new AtomicLong();

    private ChaosPoint(Moment moment, long at, boolean fail, Path marker, BooleanSupplier armed) {
        this.moment = moment;
        this.at = at;
        this.fail = fail;
        this.marker = marker;
        this.armed = armed;
    }

    /**
     * @param at     {@code event:N}, {@code processing:N}, {@code snapshot:N} or {@code committed:N}, N at least 1
     * @param fail   throw there (else freeze)
     * @param marker the file written when the point is reached
     */
    static ChaosPoint parse(String at, boolean fail, Path marker, BooleanSupplier armed) {
        String[] parts = at.split(":");
        if (parts.length != 2 || !parts[0].matches("event|processing|snapshot|committed") || !parts[1].matches("[1-9][0-9]{0,17}")) {
            throw new IllegalArgumentException("must be event:N, processing:N, snapshot:N or committed:N with N at least 1; is \"" + at + "\"");
        }
        return new ChaosPoint(Moment.valueOf(parts[0].toUpperCase(Locale.ROOT)), Long.parseLong(parts[1]), fail, marker, armed);
    }

    void event() {
        reached(Moment.EVENT);
    }

    void result() {
        reached(Moment.PROCESSING);
    }

    void snapshotSaved() {
        reached(Moment.SNAPSHOT);
    }

    void snapshotCommitted() {
        reached(Moment.COMMITTED);
    }

    private void reached(Moment what) {
        if (what != moment || !armed.getAsBoolean() || count.incrementAndGet() != at) {
            return;
        }
        try {
            Files.writeString(marker, spelled());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (fail) {
            throw new IllegalStateException("a failure injected at " + spelled());
        }
        while (true) {
            LockSupport.park(this);
        }
    }

    private String spelled() {
        return moment.name().toLowerCase(Locale.ROOT) + ":" + at;
    }
}
