package io.fournines.engine.processor;

import io.fournines.engine.core.Counter;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What a rate-controlled source reports while it runs: how many items it emitted and how far
 * behind its schedule it is. Safe to read from any thread.
 */
public final class ScheduleMonitor {

    private static final int MAX_INSTANCES = 1024;

    /** One per source instance ever started: a restarted instance adds its own, so no count is lost. */
    private final Queue<Counter> emitted = new ConcurrentLinkedQueue<>();
    private final AtomicLongArray lagNanosByInstance = new AtomicLongArray(MAX_INSTANCES);

    /** A new source instance's count of the items it emitted, which only that instance's thread adds to. */
    Counter newEmittedCount() {
        Counter count = new Counter();
        emitted.add(count);
        return count;
    }

    void reportLag(int instance, long lagNanos) {
        lagNanosByInstance.lazySet(instance, lagNanos);
    }

    public long emitted() {
        long sum = 0;
        for (Counter count : emitted) {
            sum += count.get();
        }
        return sum;
    }

    /** The worst instance's distance behind schedule, in nanoseconds; 0 when on time. */
    public long lagNanos() {
        long worst = 0;
        for (int i = 0; i < MAX_INSTANCES; i++) {
            worst = Math.max(worst, lagNanosByInstance.get(i));
        }
        return worst;
    }

    static void checkInstance(int instance) {
        if (instance >= MAX_INSTANCES) {
            throw new IllegalArgumentException("a monitored source supports at most " + MAX_INSTANCES + " instances, got index " + instance);
        }
    }
}
