package io.fournines.nexmark.driver;

import io.fournines.nexmark.generator.EventSchedule;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;

/**
 * One instance of the open-loop source, engine-agnostic: slice {@code index} of {@code count} makes
 * events {@code index, index + count, ...}; event {@code i} is due at {@code t0 + i / rate} (t0
 * shared by all slices of the run, see {@link RunContext#origin()}) and carries that time as its
 * {@code dateTime}, whenever it is really sent. A slice that falls behind keeps the schedule and
 * catches up as fast as the engine lets it, so the delay shows as latency; it reports how far
 * behind it is. Not thread-safe: one per source instance.
 */
public final class PacedSlice {

    /** Receives each event with its scheduled time in epoch nanoseconds. */
    @FunctionalInterface
    public interface Emitter {
        void emit(Event event, long scheduledEpochNanos);
    }

    private final RunContext run;
    private final NexmarkGenerator generator;
    private final EventSchedule schedule;
    private final long limit;
    private final int index;
    private final int count;
    private long next;

    public PacedSlice(GeneratorSpec spec, RunContext run, int index, int count) {
        if (count <= 0 || index < 0 || index >= count) {
            throw new IllegalArgumentException("slice index must be in [0, count) with count > 0, got " + index + " of " + count);
        }
        this.run = run;
        this.generator = new NexmarkGenerator(spec.config());
        this.schedule = new EventSchedule(spec.rate());
        this.limit = spec.limit();
        this.index = index;
        this.count = count;
        this.next = index;
    }

    /**
     * Emits the events due by now, at most {@code max}; returns how many. Never waits: a source
     * calls it again when the engine gives it a turn.
     */
    public int emitDue(Emitter emitter, int max) {
        long[] origin = run.origin();
        long now = System.nanoTime();
        int emitted = 0;
        while (emitted < max && next < limit) {
            long offset = schedule.offsetNanos(next);
            if (origin[0] + offset > now) {
                break;
            }
            long scheduledEpochNanos = origin[1] + offset;
            run.generated(1); // before handing it over: an engine may process it before emit returns
            emitter.emit(generator.event(next, Math.floorDiv(scheduledEpochNanos, 1_000_000L)), scheduledEpochNanos);
            next += count;
            emitted++;
        }
        run.behind(index, next < limit ? Math.max(0, now - (origin[0] + schedule.offsetNanos(next))) : 0);
        return emitted;
    }

    /** True once every event up to the spec's limit was emitted. */
    public boolean exhausted() {
        return next >= limit;
    }

    /** Nanoseconds until the next event is due (≤ 0 when it is due now). */
    public long nanosUntilNext() {
        return run.origin()[0] + schedule.offsetNanos(next) - System.nanoTime();
    }
}
