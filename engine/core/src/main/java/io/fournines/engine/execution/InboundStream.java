package io.fournines.engine.execution;

import io.fournines.engine.core.DoneItem;
import io.fournines.engine.core.SnapshotBarrier;
import io.fournines.engine.core.Watermark;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * One input ordinal of a processor instance: an SPSC queue per upstream producer instance. Drains
 * them round-robin into the inbox; stops at each queue's watermark, snapshot barrier or done item and
 * coalesces the watermarks across the queues. A queue whose barrier is at or past the snapshot being
 * aligned is not read until the tasklet has saved it (exactly-once alignment).
 */
final class InboundStream {

    private final int ordinal;
    private final int priority;
    private final OneToOneConcurrentArrayQueue<Object>[] queues;
    private final boolean[] queueDone;
    /** The newest snapshot barrier each queue delivered. */
    private final long[] queueBarrier;
    private final WatermarkCoalescer coalescer;
    private int liveQueues;
    private int nextQueue;

    InboundStream(int ordinal, int priority, OneToOneConcurrentArrayQueue<Object>[] queues) {
        this.ordinal = ordinal;
        this.priority = priority;
        this.queues = queues;
        this.queueDone = new boolean[queues.length];
        this.queueBarrier = new long[queues.length];
        this.coalescer = new WatermarkCoalescer(queues.length);
        this.liveQueues = queues.length;
    }

    int ordinal() {
        return ordinal;
    }

    int priority() {
        return priority;
    }

    boolean isDone() {
        return liveQueues == 0;
    }

    /**
     * Moves available items into the inbox, visiting each live queue once, starting where the last
     * drain stopped, and skipping queues that delivered barrier {@code blockedFromBarrier} or a later
     * one. Returns whether anything (item, watermark, barrier or done) was taken.
     */
    boolean drainTo(InboxImpl inbox, long blockedFromBarrier) {
        boolean took = false;
        for (int visited = 0; visited < queues.length; visited++) {
            int q = nextQueue;
            nextQueue = q + 1 == queues.length ? 0 : q + 1;
            if (!queueDone[q] && queueBarrier[q] < blockedFromBarrier) {
                took |= drainQueue(q, inbox);
            }
        }
        return took;
    }

    /** Whether every queue delivered snapshot {@code snapshotId}'s barrier (or a later one), or is done. */
    boolean reachedBarrier(long snapshotId) {
        for (int q = 0; q < queues.length; q++) {
            if (!queueDone[q] && queueBarrier[q] < snapshotId) {
                return false;
            }
        }
        return true;
    }

    private boolean drainQueue(int q, InboxImpl inbox) {
        OneToOneConcurrentArrayQueue<Object> queue = queues[q];
        // Bounded by the capacity so a fast producer cannot keep this call going forever.
        for (int i = 0, limit = queue.capacity(); i < limit; i++) {
            Object item = queue.poll();
            if (item == null) {
                return i > 0;
            }
            if (item instanceof Watermark wm) {
                coalescer.observe(q, wm.timestamp());
                return true;
            }
            if (item instanceof SnapshotBarrier barrier) {
                queueBarrier[q] = barrier.snapshotId();
                return true;
            }
            if (item == DoneItem.DONE) {
                queueDone[q] = true;
                coalescer.inputDone(q);
                liveQueues--;
                return true;
            }
            inbox.add(item);
        }
        return true;
    }

    /** The coalesced watermark of this input to pass on, or a {@link WatermarkCoalescer} sentinel. */
    long nextWatermark() {
        return coalescer.next();
    }
}
