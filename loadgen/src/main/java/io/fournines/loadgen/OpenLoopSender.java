package io.fournines.loadgen;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One sender thread: events {@code thread, thread + threads, ...} of the global sequence, each sent
 * no earlier than its scheduled time and carrying that time. A sender that falls behind (the
 * producer's buffer full, the CPU busy) keeps the schedule: it sends the overdue events as fast as it
 * can, never shifts the schedule, and reports how far behind it is, so the delay becomes measured
 * latency downstream instead of disappearing.
 *
 * <p>Event i goes to partition {@code i % partitions}. With partitions a multiple of threads, every
 * partition is written by one thread in schedule order, so event time never goes back within a
 * partition and a consumer's watermark needs no allowed lag.
 */
final class OpenLoopSender implements Runnable {

    private final int thread;
    private final int threads;
    private final Schedule schedule;
    private final long maxEvents;
    private final long endNanos;
    private final EventStream stream;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final SendProgress progress;
    private final BooleanSupplier stopped;
    private final Callback onAck;

    /**
     * @param maxEvents events in the whole sequence (Long.MAX_VALUE: no limit)
     * @param endNanos  no event due at or after this nanoTime is sent
     */
    OpenLoopSender(int thread, int threads, Schedule schedule, long maxEvents, long endNanos, EventStream stream,
                   Producer<byte[], byte[]> producer, String topic, int partitions, SendProgress progress, BooleanSupplier stopped) {
        this.thread = thread;
        this.threads = threads;
        this.schedule = schedule;
        this.maxEvents = maxEvents;
        this.endNanos = endNanos;
        this.stream = stream;
        this.producer = producer;
        this.topic = topic;
        this.partitions = partitions;
        this.progress = progress;
        this.stopped = stopped;
        this.onAck = (metadata, exception) -> progress.acknowledged(exception);
    }

    @Override
    public void run() {
        long sent = 0;
        // A failed send means the run's load is broken (the broker gone, the topic deleted): stop
        // rather than block up to max.block.ms on every further send.
        for (long i = thread; i < maxEvents && !stopped.getAsBoolean() && progress.firstError() == null; i += threads) {
            long due = schedule.dueNanos(i);
            if (due >= endNanos) {
                break;
            }
            long now = System.nanoTime();
            while (due > now) {
                LockSupport.parkNanos(due - now);
                now = System.nanoTime();
            }
            producer.send(stream.record(topic, (int) (i % partitions), i, schedule.epochNanos(due)), onAck);
            sent++;
            progress.sent(thread, sent, now - due);
        }
        progress.sent(thread, sent, 0);
    }
}
