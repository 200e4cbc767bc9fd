package io.fournines.engine.execution;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

import java.util.Arrays;
import java.util.function.ToIntFunction;

/**
 * One output ordinal of a producer instance: its SPSC queues, one per consumer instance it can
 * reach, and the edge's rule for choosing among them.
 */
abstract class OutboundCollector {

    protected final OneToOneConcurrentArrayQueue<Object>[] queues;
    private final boolean[] acceptedPendingItem;
    private Object pendingItem;

    OutboundCollector(OneToOneConcurrentArrayQueue<Object>[] queues) {
        this.queues = queues;
        this.acceptedPendingItem = new boolean[queues.length];
    }

    /** Offers a data item to the consumer the routing rule picks. */
    abstract boolean offer(Object item);

    /**
     * Offers the item to every queue. On a partial success the queues that took it are remembered,
     * so offering the same instance again reaches only the rest.
     */
    final boolean offerToAll(Object item) {
        if (item != pendingItem) {
            pendingItem = item;
            Arrays.fill(acceptedPendingItem, false);
        }
        boolean all = true;
        for (int i = 0; i < queues.length; i++) {
            if (!acceptedPendingItem[i]) {
                acceptedPendingItem[i] = queues[i].offer(item);
                all &= acceptedPendingItem[i];
            }
        }
        if (all) {
            pendingItem = null;
        }
        return all;
    }

    /** Any consumer will do: try them round-robin, skipping full ones. */
    static final class RoundRobin extends OutboundCollector {
        private int next;

        RoundRobin(OneToOneConcurrentArrayQueue<Object>[] queues) {
            super(queues);
        }

        @Override
        boolean offer(Object item) {
            for (int tried = 0; tried < queues.length; tried++) {
                int q = next;
                next = q + 1 == queues.length ? 0 : q + 1;
                if (queues[q].offer(item)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The key's partition picks the consumer that owns it. */
    static final class Partitioned extends OutboundCollector {
        private final ToIntFunction<Object> partitionOf;
        private final int[] partitionOwner;

        Partitioned(OneToOneConcurrentArrayQueue<Object>[] queues, java.util.function.Function<Object, ?> keyFn,
                    Partitioner partitioner, int[] partitionOwner) {
            super(queues);
            this.partitionOf = partitioner.partitionOfItem(keyFn);
            this.partitionOwner = partitionOwner;
        }

        @Override
        boolean offer(Object item) {
            return queues[partitionOwner[partitionOf.applyAsInt(item)]].offer(item);
        }
    }

    /** Every consumer gets every item. */
    static final class Broadcast extends OutboundCollector {
        Broadcast(OneToOneConcurrentArrayQueue<Object>[] queues) {
            super(queues);
        }

        @Override
        boolean offer(Object item) {
            return offerToAll(item);
        }
    }

    /** Exactly one consumer (isolated and all-to-one edges). */
    static final class Single extends OutboundCollector {
        Single(OneToOneConcurrentArrayQueue<Object> queue) {
            super(singleton(queue));
        }

        @Override
        boolean offer(Object item) {
            return queues[0].offer(item);
        }

        @SuppressWarnings("unchecked")
        private static OneToOneConcurrentArrayQueue<Object>[] singleton(OneToOneConcurrentArrayQueue<Object> queue) {
            return new OneToOneConcurrentArrayQueue[] {queue};
        }
    }
}
