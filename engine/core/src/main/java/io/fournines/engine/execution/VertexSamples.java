package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;

import java.util.function.Function;

/**
 * A processor instance's share of its worker's time, of backpressure and of its input queues' room,
 * as counters of the {@link TaskletSampler}'s samples, each weighted by the microseconds it stands
 * for (the sampler's thread is their one writer). Over an interval, summed over a vertex's
 * instances: busy share = Δ{@value #BUSY} / Δ{@value #SAMPLED}, backpressured share =
 * Δ{@value #BACKPRESSURED} / Δ{@value #SAMPLED}, mean input queue fill = Δ{@value #QUEUED} /
 * Δ{@value #QUEUE_ROOM}.
 */
public final class VertexSamples {

    /** Microseconds the instance's samples stand for. */
    public static final String SAMPLED = "sampledMicros";
    /** Of them, those whose sample found its worker in its call. */
    public static final String BUSY = "sampledBusyMicros";
    /** Of them, those whose sample found its last call's output refused by a full downstream queue. */
    public static final String BACKPRESSURED = "sampledBackpressuredMicros";
    /** Items waiting in its input queues at each sample, times the microseconds the sample stands for. */
    public static final String QUEUED = "sampledQueuedItemMicros";
    /** Its input queues' capacity, times the microseconds each sample stands for. */
    public static final String QUEUE_ROOM = "sampledQueueRoomMicros";

    private final Counter sampled;
    private final Counter busy;
    private final Counter backpressured;
    private final Counter queued;
    private final Counter queueRoom;

    VertexSamples(Function<String, Counter> counters) {
        this.sampled = counters.apply(SAMPLED);
        this.busy = counters.apply(BUSY);
        this.backpressured = counters.apply(BACKPRESSURED);
        this.queued = counters.apply(QUEUED);
        this.queueRoom = counters.apply(QUEUE_ROOM);
    }

    /** Whether a counter name is one of these (they are weighted samples, not items). */
    public static boolean isSampleCounter(String name) {
        return name.startsWith("sampled");
    }

    void add(long micros, boolean running, boolean wasBackpressured, int queuedNow, int room) {
        sampled.add(micros);
        if (running) {
            busy.add(micros);
        }
        if (wasBackpressured) {
            backpressured.add(micros);
        }
        queued.add(queuedNow * micros);
        queueRoom.add(room * micros);
    }
}
