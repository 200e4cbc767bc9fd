package io.fournines.engine.job;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coordinated omission must not hide a stall: items carry their scheduled time, so when the engine
 * stops for a while, every item scheduled during the stall shows the delay.
 */
class StallVisibilityTest {

    @Test
    void everyItemScheduledDuringAStallCarriesTheDelay() {
        int rate = 20_000;
        int items = 3 * rate;
        long stallMillis = 500;
        AtomicBoolean stalled = new AtomicBoolean();
        AtomicLong delayedByHalfTheStall = new AtomicLong();
        AtomicLong maxLatencyNanos = new AtomicLong();

        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(rate, items, (seq, scheduledEpochNanos) -> new long[] {seq, scheduledEpochNanos}, new io.fournines.engine.processor.ScheduleMonitor()))
         .withoutTimestamps()
         .map(item -> {
             // One worker freezes for half a second, a second into the run (a GC pause, a blocked call).
             if (item[0] == rate && stalled.compareAndSet(false, true)) {
                 sleep(stallMillis);
             }
             return item;
         })
         .writeTo(Sinks.forEach("latency", (long[] item) -> {
             long latency = epochNanosNow() - item[1];
             maxLatencyNanos.accumulateAndGet(latency, Math::max);
             if (latency >= stallMillis * 1_000_000 / 2) {
                 delayedByHalfTheStall.incrementAndGet();
             }
         }));
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(1))) {
            engine.newJob(p).join();
        }

        assertThat(maxLatencyNanos.get()).isGreaterThanOrEqualTo(stallMillis * 1_000_000);
        // The items scheduled in the first half of the stall waited at least half of it: rate * 0.25 s.
        assertThat(delayedByHalfTheStall.get()).isGreaterThanOrEqualTo(rate / 4);
    }

    private static long epochNanosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
