package io.fournines.loadgen;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the sender threads report while they run: records sent and how far behind schedule each
 * thread is (written by that thread only, with lazySet: no contended atomics on the send path), and
 * Kafka's acknowledgements and failures (from the producers' I/O threads).
 */
final class SendProgress {

    private final AtomicLongArray sent;
    private final AtomicLongArray lagNanos;
    private final LongAdder acked = new LongAdder();
    private final LongAdder endsAcked = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<Exception> firstError = new AtomicReference<>();

    SendProgress(int threads) {
        sent = new AtomicLongArray(threads);
        lagNanos = new AtomicLongArray(threads);
    }

    void sent(int thread, long total, long lag) {
        sent.lazySet(thread, total);
        lagNanos.lazySet(thread, lag);
    }

    void acknowledged(Exception failure) {
        acknowledged(failure, acked);
    }

    /** An end-of-stream record's acknowledgement: not an event, counted apart. */
    void endAcknowledged(Exception failure) {
        acknowledged(failure, endsAcked);
    }

    private void acknowledged(Exception failure, LongAdder count) {
        if (failure == null) {
            count.increment();
        } else {
            errors.increment();
            firstError.compareAndSet(null, failure);
        }
    }

    long sent() {
        long total = 0;
        for (int i = 0; i < sent.length(); i++) {
            total += sent.get(i);
        }
        return total;
    }

    /** The furthest any thread is behind its schedule, in nanoseconds; 0 when all are on time. */
    long lagNanos() {
        long worst = 0;
        for (int i = 0; i < lagNanos.length(); i++) {
            worst = Math.max(worst, lagNanos.get(i));
        }
        return worst;
    }

    long acked() {
        return acked.sum();
    }

    long endsAcked() {
        return endsAcked.sum();
    }

    long errors() {
        return errors.sum();
    }

    Exception firstError() {
        return firstError.get();
    }
}
