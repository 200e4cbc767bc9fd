package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Window results checked against a deliberately naive computation over the same events. */
class WindowAggregationTest extends TestEngines {

    record Event(long time, int key, long value) {
    }

    /** Out-of-order events spread over time with gaps, so some windows are empty. */
    private static List<Event> randomEvents(int count, int keys, long seed) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long time = random.nextInt(4) == 0 ? 50_000 + random.nextInt(2_000) : random.nextInt(10_000);
            events.add(new Event(time, random.nextInt(keys), random.nextInt(1000)));
        }
        return events;
    }

    /** For every window [k*slide, k*slide+size) and key with events: the reducer's result. */
    private static <R> Set<KeyedWindowResult<Integer, R>> naiveWindows(List<Event> events, WindowDefinition w, Function<List<Event>, R> reducer) {
        Set<KeyedWindowResult<Integer, R>> out = new HashSet<>();
        long minK = Math.floorDiv(events.stream().mapToLong(Event::time).min().orElseThrow() - w.size() + 1, w.slide());
        long maxK = Math.floorDiv(events.stream().mapToLong(Event::time).max().orElseThrow(), w.slide());
        for (long k = minK; k <= maxK; k++) {
            long start = k * w.slide();
            long end = start + w.size();
            Map<Integer, List<Event>> byKey = new HashMap<>();
            for (Event e : events) {
                if (e.time() >= start && e.time() < end) {
                    byKey.computeIfAbsent(e.key(), x -> new ArrayList<>()).add(e);
                }
            }
            byKey.forEach((key, list) -> out.add(new KeyedWindowResult<>(start, end, key, reducer.apply(list))));
        }
        return out;
    }

    private <R> List<KeyedWindowResult<Integer, R>> runKeyed(List<Event> events, WindowDefinition w, AggregateOperation<? super Event, ?, R> op) {
        List<KeyedWindowResult<Integer, R>> results = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(events))
         .withTimestamps(Event::time, 0)
         .groupingKey(Event::key)
         .window(w)
         .aggregate(op)
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();
        return results;
    }

    @Test
    void slidingCountMatchesNaiveCount() {
        List<Event> events = randomEvents(30_000, 50, 1);
        WindowDefinition w = WindowDefinition.sliding(1_000, 100);
        List<KeyedWindowResult<Integer, Long>> results = runKeyed(events, w, AggregateOperations.counting());
        assertThat(results).doesNotHaveDuplicates();
        assertThat(new HashSet<>(results)).isEqualTo(naiveWindows(events, w, list -> (long) list.size()));
    }

    @Test
    void slidingCountByLongKeyMatchesCountByBoxedKey() {
        List<Event> events = randomEvents(30_000, 50, 6);
        WindowDefinition w = WindowDefinition.sliding(1_000, 100);
        List<KeyedWindowResult<Long, Long>> results = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(events))
         .withTimestamps(Event::time, 0)
         .groupingLongKey(e -> e.key() + 1_000_000L)
         .window(w)
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();
        assertThat(results).doesNotHaveDuplicates();
        assertThat(new HashSet<>(results)).isEqualTo(naiveWindows(events, w, list -> (long) list.size()).stream()
                .map(r -> new KeyedWindowResult<>(r.start(), r.end(), r.key() + 1_000_000L, r.result())).collect(Collectors.toSet()));
    }

    @Test
    void tumblingSumMatchesNaiveSum() {
        List<Event> events = randomEvents(20_000, 20, 2);
        WindowDefinition w = WindowDefinition.tumbling(500);
        List<KeyedWindowResult<Integer, Long>> results = runKeyed(events, w, AggregateOperations.summingLong(Event::value));
        assertThat(results).doesNotHaveDuplicates();
        assertThat(new HashSet<>(results)).isEqualTo(naiveWindows(events, w, list -> list.stream().mapToLong(Event::value).sum()));
    }

    @Test
    void slidingMaximumRecombinesFramesWithoutDeducting() {
        List<Event> events = randomEvents(20_000, 10, 3);
        WindowDefinition w = WindowDefinition.sliding(400, 100);
        AggregateOperation<Event, ?, Long> max = AggregateOperations.maxLong(Event::value);
        assertThat(max.canDeduct()).isFalse();
        List<KeyedWindowResult<Integer, Long>> results = runKeyed(events, w, max);
        assertThat(new HashSet<>(results)).isEqualTo(naiveWindows(events, w, list -> list.stream().mapToLong(Event::value).max().orElseThrow()));
    }

    @Test
    void slidingAverageDeductsToTheRightMean() {
        List<Event> events = randomEvents(20_000, 10, 4);
        WindowDefinition w = WindowDefinition.sliding(300, 100);
        List<KeyedWindowResult<Integer, Double>> results = runKeyed(events, w, AggregateOperations.averaging(Event::value));
        Map<KeyedWindowResult<Integer, Double>, Double> expected = new HashMap<>();
        naiveWindows(events, w, list -> list.stream().mapToLong(Event::value).average().orElseThrow())
                .forEach(r -> expected.put(new KeyedWindowResult<>(r.start(), r.end(), r.key(), 0.0), r.result()));
        assertThat(results).hasSize(expected.size());
        for (KeyedWindowResult<Integer, Double> r : results) {
            Double mean = expected.get(new KeyedWindowResult<>(r.start(), r.end(), r.key(), 0.0));
            assertThat(mean).as("window %s", r).isNotNull();
            assertThat(r.result()).isCloseTo(mean, org.assertj.core.data.Offset.offset(1e-6));
        }
    }

    @Test
    void globalWindowTopNOverAllKeys() {
        List<Event> events = randomEvents(5_000, 1000, 5);
        WindowDefinition w = WindowDefinition.tumbling(1_000);
        List<WindowResult<List<Event>>> results = new ArrayList<>();
        Comparator<Event> byValueThenTime = Comparator.comparingLong(Event::value).thenComparingLong(Event::time).thenComparingInt(Event::key);
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(events))
         .withTimestamps(Event::time, 0)
         .window(w)
         .aggregate(AggregateOperations.topN(3, byValueThenTime))
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();

        Set<KeyedWindowResult<Integer, List<Event>>> expected = new HashSet<>();
        for (KeyedWindowResult<Integer, List<Event>> r : naiveWindows(events.stream().map(e -> new Event(e.time(), 0, e.value())).toList(), w, list -> list)) {
            expected.add(r);
        }
        assertThat(results).hasSize(expected.size());
        for (WindowResult<List<Event>> r : results) {
            List<Event> inWindow = events.stream().filter(e -> e.time() >= r.start() && e.time() < r.end()).sorted(byValueThenTime.reversed()).toList();
            assertThat(r.result()).containsExactlyElementsOf(inWindow.subList(0, Math.min(3, inWindow.size())));
        }
    }

    @Test
    void generatorStreamFiresWindowsOnWatermarksAndLosesNothing() {
        int total = 200_000;
        List<KeyedWindowResult<Long, Long>> results = new ArrayList<>();
        ScheduleMonitor monitor = new ScheduleMonitor();
        Pipeline p = Pipeline.create();
        // 1 M items/s: 200 ms of events, one key per item modulo 100, event time in microseconds.
        p.readFrom(Sources.generator(1_000_000, total, (seq, epochNanos) -> new long[] {seq, seq / 1_000}, monitor))
         .withTimestamps((long[] item) -> item[1], 0)
         .groupingKey(item -> item[0] % 100)
         .window(WindowDefinition.sliding(20, 5))
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();

        assertThat(monitor.emitted()).isEqualTo(total);
        // Every item is in size/slide = 4 windows; items are in order, so none is late.
        assertThat(results.stream().mapToLong(KeyedWindowResult::result).sum()).isEqualTo(4L * total);
        assertThat(results).doesNotHaveDuplicates();
    }
}
