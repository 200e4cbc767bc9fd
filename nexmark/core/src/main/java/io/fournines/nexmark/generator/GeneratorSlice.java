package io.fournines.nexmark.generator;

import io.fournines.nexmark.model.Event;

/**
 * Generator {@code index} of {@code count}: the events whose global id {@code i} satisfies
 * {@code i % count == index}, in id order. The slices of {@code count} generators are disjoint and
 * together hold every event exactly once, each identical to what a single generator makes for that
 * id. Interleaving (rather than contiguous ranges) keeps every slice on the same clock: each one's
 * next event is due within {@code count / rate} of the others'.
 *
 * <p>Not thread-safe; a source tasklet owns one.
 */
public final class GeneratorSlice {
    private final NexmarkGenerator generator;
    private final int count;
    private long nextEventId;

    public GeneratorSlice(GeneratorConfig config, int index, int count) {
        if (count <= 0 || index < 0 || index >= count) {
            throw new IllegalArgumentException(
                    "generator index must be in [0, count) with count > 0, got index " + index + " of " + count);
        }
        this.generator = new NexmarkGenerator(config);
        this.count = count;
        this.nextEventId = index;
    }

    /** Global id of the event {@link #next()} returns. */
    public long nextEventId() {
        return nextEventId;
    }

    /** Nanoseconds after {@code t0} at which the next event is due; emit it once that time has come. */
    public long nextScheduledOffsetNanos() {
        return generator.schedule().offsetNanos(nextEventId);
    }

    /** The next event of this slice. */
    public Event next() {
        Event event = generator.event(nextEventId);
        nextEventId += count;
        return event;
    }
}
