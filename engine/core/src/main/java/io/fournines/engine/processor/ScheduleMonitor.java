package io.fournines.engine.processor;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a rate-controlled source reports while it runs: how many items it emitted and how far
 * behind its schedule it is. Safe to read from any thread.
 */
public final class ScheduleMonitor {

    private static final int MAX_INSTANCES = 1024;

    private final LongAdder emitted = new LongAdder();
    private final AtomicLongArray lagNanosByInstance = new AtomicLongArray(MAX_INSTANCES);

    void addEmitted(long count) {
        emitted.add(count);
    }

    void reportLag(int instance, long lagNanos) {
        lagNanosByInstance.lazySet(instance, lagNanos);
    }

    public long emitted() {
        return emitted.sum();
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
