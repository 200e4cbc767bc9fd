package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.job.Engine;
import io.fournines.engine.processor.GeneratorSourceP.ItemFactory;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generator whose factory can refill one item gets to do so only where what reads it keeps
 * nothing of an item: a window of sums under primitive keys fused into the source. There the
 * results are those of new items, through a chain whose stages make results of their own.
 */
class ReusedItemsTest {

    private static final int ITEMS = 60_000;

    @Test
    void aFusedWindowOfSumsUnderLongKeysCountsRefilledItemsAsNewOnes() {
        Readings reused = new Readings();
        List<Object> fused = new ArrayList<>();
        Pipeline p = Pipeline.create();
        sumsByKey(readings(p, reused), stage -> stage.groupingLongKey(Reading::key)).writeTo(Sinks.list(fused));
        assertThat(p.explain()).contains("accumulate-by-frame)\n");

        Readings apartReadings = new Readings();
        List<Object> apart = new ArrayList<>();
        Pipeline q = Pipeline.create();
        StreamStage<Reading> source = readings(q, apartReadings);
        sumsByKey(source, stage -> stage.groupingLongKey(Reading::key)).writeTo(Sinks.list(apart));
        source.writeTo(Sinks.discard());

        run(p, q);
        assertThat(reused.reusing.get()).as("sources given the refilling factory").isPositive();
        assertThat(reused.refills.get()).as("items refilled").isEqualTo(ITEMS);
        assertThat(apartReadings.reusing.get()).as("a source with another consumer").isZero();
        assertThat(fused).isNotEmpty().containsExactlyInAnyOrderElementsOf(apart);
    }

    /** An object key may be (part of) the item, so frames under one would keep it. */
    @Test
    void aWindowUnderObjectKeysGetsNewItems() {
        Readings readings = new Readings();
        Pipeline p = Pipeline.create();
        sumsByKey(readings(p, readings), stage -> stage.groupingKey(Reading::key)).writeTo(Sinks.discard());
        run(p);
        assertThat(readings.reusing.get()).isZero();
    }

    private static StreamStage<Reading> readings(Pipeline p, Readings factory) {
        return p.readFrom(Sources.generator(2_000_000, ITEMS, () -> factory, new ScheduleMonitor()))
                .withTimestamps(Reading::time, 0)
                // A stage that makes its own result from the item: the refilled item is taken by then.
                .map(r -> new Reading(r.key, r.time, r.value * 2))
                .filter(r -> r.key != 3)
                .withTimestamps(Reading::time);
    }

    private static <K> StreamStage<KeyedWindowResult<K, Long>> sumsByKey(StreamStage<Reading> readings,
                                                                          Function<StreamStage<Reading>, StreamStageWithKey<Reading, K>> grouping) {
        return grouping.apply(readings).window(WindowDefinition.sliding(100, 10)).aggregate(AggregateOperations.summingLong(Reading::value));
    }

    private static void run(Pipeline... pipelines) {
        try (Engine engine = TestEngines.start()) {
            for (Pipeline p : pipelines) {
                engine.newJob(p).join();
            }
        }
    }

    /** Mutable, as a refilled item is; its fields follow from its sequence, so any run makes the same ones. */
    static final class Reading {
        private long key;
        private long time;
        private long value;

        Reading(long key, long time, long value) {
            this.key = key;
            this.time = time;
            this.value = value;
        }

        long key() {
            return key;
        }

        long time() {
            return time;
        }

        long value() {
            return value;
        }

        Reading of(long sequence) {
            key = sequence % 7;
            time = sequence / 20;
            value = sequence % 11;
            return this;
        }
    }

    /** New readings, or one refilled for each once asked for {@link #reusingItems}; counts both. */
    static final class Readings implements ItemFactory<Reading> {
        final AtomicInteger reusing = new AtomicInteger();
        final AtomicInteger refills = new AtomicInteger();

        @Override
        public Reading create(long sequence, long scheduledEpochNanos) {
            return new Reading(0, 0, 0).of(sequence);
        }

        @Override
        public ItemFactory<Reading> reusingItems() {
            reusing.incrementAndGet();
            Reading one = new Reading(0, 0, 0);
            return (sequence, scheduled) -> {
                refills.incrementAndGet();
                return one.of(sequence);
            };
        }
    }
}
