package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;

import java.util.function.Function;

/**
 * A processor instance's share of its worker's time, of backpressure and of its input queues' room,
 * as counters of the {@link TaskletSampler}'s samples (its thread is their one writer). Over an
 * interval, summed over a vertex's instances: busy share = Δ{@value #BUSY} / Δ{@value #SAMPLES},
 * backpressured share = Δ{@value #BACKPRESSURED} / Δ{@value #SAMPLES}, mean input queue fill =
 * Δ{@value #QUEUED} / Δ{@value #QUEUE_ROOM}.
 */
public final class VertexSamples {

    /** Samples taken of the instance. */
    public static final String SAMPLES = "samples";
    /** Samples that found its worker in its call. */
    public static final String BUSY = "samplesBusy";
    /** Samples that found its last call's output refused by a full downstream queue. */
    public static final String BACKPRESSURED = "samplesBackpressured";
    /** Items waiting in its input queues, added up over the samples. */
    public static final String QUEUED = "samplesQueued";
    /** Its input queues' capacity, added up over the samples. */
    public static final String QUEUE_ROOM = "samplesQueueRoom";

    private final Counter samples;
    private final Counter busy;
    private final Counter backpressured;
    private final Counter queued;
    private final Counter queueRoom;

    VertexSamples(Function<String, Counter> counters) {
        this.samples = counters.apply(SAMPLES);
        this.busy = counters.apply(BUSY);
        this.backpressured = counters.apply(BACKPRESSURED);
        this.queued = counters.apply(QUEUED);
        this.queueRoom = counters.apply(QUEUE_ROOM);
    }

    /** Whether a counter name is one of these (they are sample counts, not items). */
    public static boolean isSampleCounter(String name) {
        return name.startsWith(SAMPLES);
    }

    void add(boolean running, boolean wasBackpressured, int queuedNow, int room) {
        samples.increment();
        if (running) {
            busy.increment();
        }
        if (wasBackpressured) {
            backpressured.increment();
        }
        queued.add(queuedNow);
        queueRoom.add(room);
    }
}
