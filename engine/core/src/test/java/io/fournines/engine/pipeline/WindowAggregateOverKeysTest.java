package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A window's (key, sum) pairs aggregated over all keys: the same as the per-key window results
 * gathered per window, one result per window that had items, on several workers.
 */
class WindowAggregateOverKeysTest extends TestEngines {

    record Event(long time, long key, long value) {
    }

    /** Every key's sum in the window, so a result shows each pair that went in. */
    private static OverKeysOperation<TreeMap<Long, Long>, TreeMap<Long, Long>> allSums() {
        return new OverKeysOperation<>(TreeMap::new, (TreeMap<Long, Long> acc, long key, long sum) -> acc.put(key, sum),
                TreeMap::putAll, acc -> acc);
    }

    /** The keys tied for the highest sum, and that sum as the map's only value. */
    private static OverKeysOperation<TreeMap<Long, Long>, TreeMap<Long, Long>> tiedForMax() {
        return new OverKeysOperation<>(TreeMap::new, WindowAggregateOverKeysTest::offer,
                (acc, other) -> other.forEach((key, sum) -> offer(acc, key, sum)), acc -> acc);
    }

    private static void offer(TreeMap<Long, Long> tied, long key, long sum) {
        long max = tied.isEmpty() ? Long.MIN_VALUE : tied.firstEntry().getValue();
        if (sum > max) {
            tied.clear();
        }
        if (sum >= max) {
            tied.put(key, sum);
        }
    }

    /** Events over 0-10 s and 50-52 s with large key ids: the windows between hold nothing. */
    private static List<Event> randomEvents(int count, int keys, long seed) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long time = random.nextInt(4) == 0 ? 50_000 + random.nextInt(2_000) : random.nextInt(10_000);
            events.add(new Event(time, 1_000_000L + random.nextInt(keys), random.nextInt(1000)));
        }
        return events;
    }

    private <R> List<WindowResult<R>> runOverKeys(List<Event> events, WindowDefinition w, OverKeysOperation<?, R> overKeys) {
        List<WindowResult<R>> results = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(events))
         .withTimestamps(Event::time, 0)
         .groupingLongKey(Event::key)
         .window(w)
         .aggregateSumsOverKeys(Event::value, overKeys)
         .writeTo(Sinks.list(results));
        engine.newJob(p).join();
        return results;
    }

    /** The per-key path's results, gathered by window into the same form. */
    private List<WindowResult<TreeMap<Long, Long>>> runPerKeyThenGather(List<Event> events, WindowDefinition w) {
        List<KeyedWindowResult<Long, Long>> perKey = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(events))
         .withTimestamps(Event::time, 0)
         .groupingLongKey(Event::key)
         .window(w)
         .aggregate(AggregateOperations.summingLong(Event::value))
         .writeTo(Sinks.list(perKey));
        engine.newJob(p).join();
        Map<Long, TreeMap<Long, Long>> byEnd = perKey.stream().collect(Collectors.groupingBy(KeyedWindowResult::end, TreeMap::new,
                Collectors.toMap(KeyedWindowResult::key, KeyedWindowResult::result, Long::sum, TreeMap::new)));
        return byEnd.entrySet().stream().map(e -> new WindowResult<>(e.getKey() - w.size(), e.getKey(), e.getValue())).toList();
    }

    @Test
    void slidingSumsOverKeysEqualThePerKeyResultsGatheredPerWindow() {
        List<Event> events = randomEvents(30_000, 50, 1);
        WindowDefinition w = WindowDefinition.sliding(1_000, 100);
        List<WindowResult<TreeMap<Long, Long>>> results = runOverKeys(events, w, allSums());
        assertThat(results).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(runPerKeyThenGather(events, w));
        // Windows between 10 s and 50 s hold nothing and give no result.
        assertThat(results).noneMatch(r -> r.start() >= 10_000 && r.end() <= 50_000);
    }

    @Test
    void tumblingSumsOverKeysEqualThePerKeyResultsGatheredPerWindow() {
        List<Event> events = randomEvents(10_000, 20, 2);
        WindowDefinition w = WindowDefinition.tumbling(500);
        assertThat(runOverKeys(events, w, allSums())).containsExactlyInAnyOrderElementsOf(runPerKeyThenGather(events, w));
    }

    /** An event at a window's end belongs to the next: [0, 20) holds times 0-19 only. */
    @Test
    void windowBoundariesAreHalfOpen() {
        List<Event> events = List.of(new Event(0, 1, 1), new Event(9, 2, 1), new Event(10, 1, 1), new Event(19, 2, 1), new Event(20, 3, 1));
        List<WindowResult<TreeMap<Long, Long>>> results = runOverKeys(events, WindowDefinition.sliding(20, 10), allSums());
        assertThat(results).containsExactlyInAnyOrder(
                new WindowResult<>(-10L, 10L, new TreeMap<>(Map.of(1L, 1L, 2L, 1L))),
                new WindowResult<>(0L, 20L, new TreeMap<>(Map.of(1L, 2L, 2L, 2L))),
                new WindowResult<>(10L, 30L, new TreeMap<>(Map.of(1L, 1L, 2L, 1L, 3L, 1L))),
                new WindowResult<>(20L, 40L, new TreeMap<>(Map.of(3L, 1L))));
    }

    /** Keys tied for the maximum land on different instances; every one of them is in the result. */
    @Test
    void everyKeyTiedForTheMaximumIsKept() {
        List<Event> events = new ArrayList<>();
        for (long key = 1; key <= 40; key++) {
            events.add(new Event(5, key, key % 4 == 0 ? 7 : 3));
        }
        List<WindowResult<TreeMap<Long, Long>>> results = runOverKeys(events, WindowDefinition.tumbling(10), tiedForMax());
        TreeMap<Long, Long> expected = new TreeMap<>();
        for (long key = 4; key <= 40; key += 4) {
            expected.put(key, 7L);
        }
        assertThat(results).containsExactly(new WindowResult<>(0L, 10L, expected));
    }

    @Test
    void anAggregateOverKeysNeedsLongKeys() {
        Pipeline p = Pipeline.create();
        StageWithKeyAndWindow<Event, Long> byBoxedKey = p.readFrom(Sources.boundedStream(List.<Event>of()))
                .withTimestamps(Event::time, 0)
                .groupingKey(Event::key)
                .window(WindowDefinition.tumbling(10));
        assertThatThrownBy(() -> byBoxedKey.aggregateSumsOverKeys(Event::value, allSums()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("groupingLongKey");
    }
}
