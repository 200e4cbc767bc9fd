package io.fournines.engine.job;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.processor.ScheduleMonitor;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A sink slower than the source: queues fill, the source is held back, nothing is lost. */
class BackpressureTest {

    private static final int ITEMS = 150_000;

    /** Blocks its own thread now and then, the way a slow external system would. */
    static final class SlowSinkP extends AbstractProcessor {
        static final AtomicLong received = new AtomicLong();
        static final ConcurrentHashMap<Long, Boolean> seen = new ConcurrentHashMap<>();

        @Override
        public boolean isCooperative() {
            return false;
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            if (seen.put((Long) item, Boolean.TRUE) != null) {
                throw new AssertionError("item " + item + " arrived twice");
            }
            if (received.incrementAndGet() % 2_000 == 0) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return true;
        }
    }

    @Test
    void aSlowSinkKeepsItemsInFlightBoundedAndLosesNothing() throws Exception {
        int workers = 2;
        ScheduleMonitor monitor = new ScheduleMonitor();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(50_000_000, ITEMS, (seq, time) -> seq, monitor))
         .withoutTimestamps()
         .map(seq -> seq)
         .writeTo(Sinks.fromProcessor("slow", SlowSinkP::new));

        long maxInFlight = 0;
        long maxLagNanos = 0;
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(workers))) {
            Job job = engine.newJob(p);
            while (!job.isDone()) {
                maxInFlight = Math.max(maxInFlight, monitor.emitted() - SlowSinkP.received.get());
                maxLagNanos = Math.max(maxLagNanos, monitor.lagNanos());
                Thread.sleep(1);
            }
            job.join();
        }

        // Per worker: two queues of 1024 on the way and what each consumer holds in its inbox, plus the
        // one item each source instance made (and counted as emitted) but the full queue refused.
        long bound = workers * 4L * 1024 + workers;
        assertThat(maxInFlight).as("items between source and sink").isLessThanOrEqualTo(bound);
        assertThat(maxLagNanos).as("the source fell behind its schedule instead of buffering").isGreaterThan(10_000_000L);
        assertThat(SlowSinkP.received.get()).isEqualTo(ITEMS);
        assertThat(SlowSinkP.seen).hasSize(ITEMS);
    }
}
