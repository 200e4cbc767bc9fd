package io.fournines.loadgen;

import io.fournines.nexmark.codec.EndOfStream;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One sender of a schedule shared by {@code threads} senders (the threads of every load generator sharing it, {@link Share}):
 * events {@code thread, thread + threads, ...} of the global sequence, each sent
 * no earlier than its scheduled time and carrying that time. A sender that falls behind (the
 * producer's buffer full, the CPU busy) keeps the schedule: it sends the overdue events as fast as it
 * can, never shifts the schedule, and reports how far behind it is, so the delay becomes measured
 * latency downstream instead of disappearing.
 *
 * <p>Event i goes to partition {@code i % partitions}. With partitions a multiple of threads, every
 * partition is written by one thread in schedule order, so event time never goes back within a
 * partition and a consumer's watermark needs no allowed lag. With {@code endOfStream}, a sender whose
 * events are all sent (not stopped, no send failed) writes an {@link EndOfStream} record to each of
 * its partitions after them.
 */
final class OpenLoopSender implements Runnable {

    private final int slot;
    private final int thread;
    private final int threads;
    private final Schedule schedule;
    private final long maxEvents;
    private final long endNanos;
    private final boolean endOfStream;
    private final EventStream stream;
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final int partitions;
    private final SendProgress progress;
    private final BooleanSupplier stopped;
    private final Callback onAck;

    /**
     * @param slot      this thread's place in its own generator's {@link SendProgress}
     * @param thread    this sender's index among all {@code threads} senders of the schedule
     * @param maxEvents events in the whole sequence (Long.MAX_VALUE: no limit)
     * @param endNanos  no event due at or after this nanoTime is sent
     */
    OpenLoopSender(int slot, int thread, int threads, Schedule schedule, long maxEvents, long endNanos, boolean endOfStream, EventStream stream,
                   Producer<byte[], byte[]> producer, String topic, int partitions, SendProgress progress, BooleanSupplier stopped) {
        this.slot = slot;
        this.thread = thread;
        this.threads = threads;
        this.schedule = schedule;
        this.maxEvents = maxEvents;
        this.endNanos = endNanos;
        this.endOfStream = endOfStream;
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
            progress.sent(slot, sent, now - due);
        }
        progress.sent(slot, sent, 0);
        if (endOfStream && !stopped.getAsBoolean() && progress.firstError() == null) {
            // Partition p gets events i with i % partitions == p: this thread's are those with p % threads == thread.
            for (int p = thread; p < partitions; p += threads) {
                producer.send(new ProducerRecord<>(topic, p, null, null, new byte[0], new RecordHeaders().add(EndOfStream.HEADER, new byte[0])),
                        (metadata, exception) -> progress.endAcknowledged(exception));
            }
        }
    }
}
