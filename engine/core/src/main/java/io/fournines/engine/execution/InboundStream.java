package io.fournines.engine.execution;

import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.DoneItem;
import io.fournines.engine.core.SnapshotBarrier;
import io.fournines.engine.core.Watermark;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One input ordinal of a processor instance: an SPSC queue per upstream producer instance. Drains
 * them round-robin into the inbox; stops at each queue's watermark, snapshot barrier, batch marker or
 * done item and coalesces the watermarks across the queues. A queue whose barrier is at or past the
 * snapshot being aligned is not read until the tasklet has saved it (exactly-once alignment). A queue
 * whose next items belong to a batch not yet launched on the tasklet's stage (micro-batch) is not
 * delivered either, but taken in: held here in arrival order, like a shuffle's fetched blocks, so its
 * producer finishes its batch instead of waiting on a full queue for a launch that waits on it.
 */
final class InboundStream {

    private final int ordinal;
    private final int priority;
    private final OneToOneConcurrentArrayQueue<Object>[] queues;
    private final boolean[] queueDone;
    /** The newest snapshot barrier each queue delivered. */
    private final long[] queueBarrier;
    /** The newest batch marker each queue delivered; -1 before the first. */
    private final long[] queueBatch;
    /** Per queue, what was taken in while its batch was not launched (null until needed). */
    private final ArrayDeque<Object>[] held;
    private final WatermarkCoalescer coalescer;
    private int liveQueues;
    private int nextQueue;

    @SuppressWarnings("unchecked")
    InboundStream(int ordinal, int priority, OneToOneConcurrentArrayQueue<Object>[] queues) {
        this.ordinal = ordinal;
        this.priority = priority;
        this.queues = queues;
        this.queueDone = new boolean[queues.length];
        this.queueBarrier = new long[queues.length];
        this.queueBatch = new long[queues.length];
        Arrays.fill(queueBatch, -1);
        this.held = new ArrayDeque[queues.length];
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

    /** From any thread: items waiting in this input's queues now (each queue's count is a racy but safe read). */
    int queued() {
        int n = 0;
        for (OneToOneConcurrentArrayQueue<Object> queue : queues) {
            n += queue.size();
        }
        return n;
    }

    /** How many items this input's queues hold when full. */
    int capacity() {
        int n = 0;
        for (OneToOneConcurrentArrayQueue<Object> queue : queues) {
            n += queue.capacity();
        }
        return n;
    }

    /**
     * Moves available items into the inbox, visiting each live queue once, starting where the last
     * drain stopped, and skipping queues that delivered barrier {@code blockedFromBarrier} or a later
     * one; a queue that delivered batch {@code readableThrough}'s marker is taken in instead. Returns
     * whether anything (item, watermark, barrier, marker or done) was taken.
     */
    boolean drainTo(InboxImpl inbox, long blockedFromBarrier, long readableThrough) {
        boolean took = false;
        for (int visited = 0; visited < queues.length; visited++) {
            int q = nextQueue;
            nextQueue = q + 1 == queues.length ? 0 : q + 1;
            if (queueDone[q] || queueBarrier[q] >= blockedFromBarrier) {
                continue;
            }
            took |= queueBatch[q] < readableThrough ? drainQueue(q, inbox) : takeIn(q) | takeBarriers(q, blockedFromBarrier);
        }
        return took;
    }

    /** Whether every queue delivered batch {@code batch}'s marker (or a later one), or is done. */
    boolean reachedBatch(long batch) {
        return everyQueueDelivered(queueBatch, batch);
    }

    /**
     * A queue waiting for its next batch's launch, once taken in, still delivers the snapshot barriers
     * at its head (a source that saved after sending its batch's marker): the snapshot's alignment must
     * not wait for a launch that waits for another input, held at its own barrier, to finish the batch.
     */
    private boolean takeBarriers(int q, long blockedFromBarrier) {
        ArrayDeque<Object> taken = held[q];
        boolean took = false;
        while (taken != null && queueBarrier[q] < blockedFromBarrier && taken.peek() instanceof SnapshotBarrier barrier) {
            taken.poll();
            queueBarrier[q] = barrier.snapshotId();
            took = true;
        }
        return took;
    }

    private boolean takeIn(int q) {
        OneToOneConcurrentArrayQueue<Object> queue = queues[q];
        if (queue.isEmpty()) {
            return false;
        }
        if (held[q] == null) {
            held[q] = new ArrayDeque<>();
        }
        return queue.drain(held[q]::add, queue.capacity()) > 0;
    }

    /** Whether every queue delivered snapshot {@code snapshotId}'s barrier (or a later one), or is done. */
    boolean reachedBarrier(long snapshotId) {
        return everyQueueDelivered(queueBarrier, snapshotId);
    }

    /** Whether every queue that is not done delivered at least {@code atLeast} (its newest marker or barrier in {@code delivered}). */
    private boolean everyQueueDelivered(long[] delivered, long atLeast) {
        for (int q = 0; q < queues.length; q++) {
            if (!queueDone[q] && delivered[q] < atLeast) {
                return false;
            }
        }
        return true;
    }

    /** Items into the inbox up to the queue's next control item, what was taken in first. */
    private boolean drainQueue(int q, InboxImpl inbox) {
        ArrayDeque<Object> taken = held[q];
        boolean took = false;
        if (taken != null) {
            for (Object item; (item = taken.poll()) != null; took = true) {
                if (stopsAt(q, item, inbox)) {
                    return true;
                }
            }
        }
        OneToOneConcurrentArrayQueue<Object> queue = queues[q];
        // Bounded by the capacity so a fast producer cannot keep this call going forever.
        for (int i = 0, limit = queue.capacity(); i < limit; i++) {
            Object item = queue.poll();
            if (item == null) {
                return took || i > 0;
            }
            if (stopsAt(q, item, inbox)) {
                return true;
            }
        }
        return true;
    }

    /** Takes one item from queue {@code q}: data into the inbox; a control item is noted, and a drain stops at it. */
    private boolean stopsAt(int q, Object item, InboxImpl inbox) {
        if (item instanceof Watermark wm) {
            coalescer.observe(q, wm.timestamp());
            return true;
        }
        if (item instanceof SnapshotBarrier barrier) {
            queueBarrier[q] = barrier.snapshotId();
            return true;
        }
        if (item instanceof BatchMarker marker) {
            queueBatch[q] = marker.batch();
            return true;
        }
        if (item == DoneItem.DONE) {
            queueDone[q] = true;
            coalescer.inputDone(q);
            liveQueues--;
            return true;
        }
        inbox.add(item);
        return false;
    }

    /** The coalesced watermark of this input to pass on, or a {@link WatermarkCoalescer} sentinel. */
    long nextWatermark() {
        return coalescer.next();
    }
}
