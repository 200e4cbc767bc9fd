package io.fournines.nexmark.driver.latency;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Window latency the paper's way: when a window's first result is emitted, record wall time minus
 * the window's end into the "first" log (when results start to flow); when the sink learns the
 * window is complete, record the time of its last result minus the window's end into the "last"
 * log (when the answer was whole).
 *
 * <p>Thread-safe: several sink threads may report results of the same window. Only windows that
 * emitted at least one result are recorded. State is one small entry per open window.
 */
public final class WindowLatencyRecorder {
    private final LatencyRecording first;
    private final LatencyRecording last;
    private final EpochClock clock;
    /** Window end (epoch millis) to the wall time (epoch micros) of its latest result so far. */
    private final ConcurrentSkipListMap<Long, AtomicLong> open = new ConcurrentSkipListMap<>();
    /** Every window ending at or before this was declared complete. */
    private volatile long completeUpTo = Long.MIN_VALUE;
    private final LongAdder lateResults = new LongAdder();

    public WindowLatencyRecorder(LatencyRecording first, LatencyRecording last, EpochClock clock) {
        this.first = first;
        this.last = last;
        this.clock = clock;
    }

    /** A result of the window ending at {@code windowEndMillis} is being emitted now. */
    public void resultEmitted(long windowEndMillis) {
        long now = clock.nowMicros();
        if (windowEndMillis <= completeUpTo) {
            // The window was declared complete, yet results keep coming: the completion signal
            // was early, and the "last" latency already recorded for it is too small.
            lateResults.increment();
            return;
        }
        AtomicLong latest = open.get(windowEndMillis);
        if (latest == null) {
            AtomicLong mine = new AtomicLong(now);
            latest = open.putIfAbsent(windowEndMillis, mine);
            if (latest == null) {
                first.recordMicros(now - windowEndMillis * 1_000);
                return;
            }
        }
        latest.accumulateAndGet(now, Math::max);
    }

    /**
     * Every window ending at or before {@code windowEndMillis} has emitted all its results (for
     * instance, the sink's watermark passed it): record their last-result latencies.
     */
    public synchronized void windowsCompleteUpTo(long windowEndMillis) {
        if (windowEndMillis > completeUpTo) {
            completeUpTo = windowEndMillis;
        }
        // Also drains entries that a result racing an earlier completion created behind it.
        Map.Entry<Long, AtomicLong> window;
        while ((window = open.firstEntry()) != null && window.getKey() <= completeUpTo) {
            if (open.remove(window.getKey(), window.getValue())) {
                last.recordMicros(window.getValue().get() - window.getKey() * 1_000);
            }
        }
    }

    /** Results that arrived for windows already declared complete; should be 0. */
    public long lateResults() {
        return lateResults.sum();
    }
}
