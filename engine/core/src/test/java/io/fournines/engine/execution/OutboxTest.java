package io.fournines.engine.execution;

import io.fournines.engine.core.Watermark;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The outbox and the SPSC queues under it: bounded, FIFO, refusals are backpressure, broadcasts resume. */
class OutboxTest {

    @SuppressWarnings("unchecked")
    private static OneToOneConcurrentArrayQueue<Object>[] queues(int count, int capacity) {
        OneToOneConcurrentArrayQueue<Object>[] qs = new OneToOneConcurrentArrayQueue[count];
        for (int i = 0; i < count; i++) {
            qs[i] = new OneToOneConcurrentArrayQueue<>(capacity);
        }
        return qs;
    }

    private static List<Object> drain(OneToOneConcurrentArrayQueue<Object> q) {
        List<Object> out = new ArrayList<>();
        q.drainTo(out, Integer.MAX_VALUE);
        return out;
    }

    @Test
    void aFullQueueRefusesAndKeepsOrder() {
        OneToOneConcurrentArrayQueue<Object>[] qs = queues(1, 4);
        OutboxImpl outbox = new OutboxImpl(new OutboundCollector[] {new OutboundCollector.Single(qs[0])}, 100);
        for (int i = 0; i < 4; i++) {
            assertThat(outbox.offer(i)).isTrue();
        }
        assertThat(outbox.offer(4)).as("capacity 4 is full").isFalse();
        assertThat(drain(qs[0])).containsExactly(0, 1, 2, 3);
        assertThat(outbox.offer(4)).isTrue();
    }

    @Test
    void theCapPerCallForcesAYieldUntilReset() {
        OneToOneConcurrentArrayQueue<Object>[] qs = queues(1, 64);
        OutboxImpl outbox = new OutboxImpl(new OutboundCollector[] {new OutboundCollector.Single(qs[0])}, 3);
        assertThat(outbox.offer("a") && outbox.offer("b") && outbox.offer("c")).isTrue();
        assertThat(outbox.hasReachedLimit()).isTrue();
        assertThat(outbox.offer("d")).isFalse();
        assertThat(outbox.resetForNextCall()).as("the call wrote to a queue").isTrue();
        assertThat(outbox.offer("d")).isTrue();
    }

    @Test
    void aRefusedBroadcastReachesOnlyTheQueuesThatMissedIt() {
        OneToOneConcurrentArrayQueue<Object>[] qs = queues(2, 2);
        qs[1].offer("blocker");
        qs[1].offer("blocker");
        OutboxImpl outbox = new OutboxImpl(new OutboundCollector[] {new OutboundCollector.Broadcast(qs)}, 100);
        Watermark wm = new Watermark(7);
        assertThat(outbox.offer(wm)).isFalse();
        drain(qs[1]);
        assertThat(outbox.offer(wm)).isTrue();
        assertThat(drain(qs[0])).containsExactly(wm);
        assertThat(drain(qs[1])).containsExactly(wm);
    }

    @Test
    void partitionedRoutingSendsEqualKeysToTheSameConsumer() {
        OneToOneConcurrentArrayQueue<Object>[] qs = queues(3, 1024);
        Partitioner partitioner = new Partitioner(271);
        OutboundCollector.Partitioned collector = new OutboundCollector.Partitioned(qs, item -> ((String) item).substring(0, 1), partitioner, partitioner.ownerTable(3));
        OutboxImpl outbox = new OutboxImpl(new OutboundCollector[] {collector}, 1000);
        for (String word : List.of("apple", "avocado", "banana", "blueberry", "cherry", "apricot")) {
            assertThat(outbox.offer(word)).isTrue();
        }
        List<List<Object>> perConsumer = List.of(drain(qs[0]), drain(qs[1]), drain(qs[2]));
        for (String letter : List.of("a", "b", "c")) {
            long consumersWithLetter = perConsumer.stream().filter(items -> items.stream().anyMatch(w -> ((String) w).startsWith(letter))).count();
            assertThat(consumersWithLetter).as("consumers holding words with '%s'", letter).isEqualTo(1);
        }
    }
}
