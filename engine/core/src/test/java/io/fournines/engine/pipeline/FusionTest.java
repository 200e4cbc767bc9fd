package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.job.Engine;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FusionTest {

    @Test
    void consecutiveStatelessStagesBecomeOneVertex() {
        Pipeline p = Pipeline.create();
        BatchStage<Integer> items = p.readFrom(Sources.items(1, 2, 3));
        items.writeTo(Sinks.discard());
        items.map(x -> x * 2)
             .filter(x -> x > 2)
             .map(x -> "n" + x)
             .writeTo(Sinks.discard());

        String plan = p.explain();

        assertThat(plan).contains("vertex fused(map, filter, map)");
        assertThat(plan).doesNotContain("vertex map\n").doesNotContain("vertex filter");
    }

    @Test
    void statelessStagesRightAfterASourceRunInTheSourcesVertex() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(1, 2, 3))
         .map(x -> x * 2)
         .filter(x -> x > 2)
         .writeTo(Sinks.discard());

        assertThat(p.explain()).contains("vertex fused(source(items), map, filter)\n    -> sink(discard)[0] isolated");
    }

    @Test
    void aStageWithTwoConsumersEndsTheChain() {
        Pipeline p = Pipeline.create();
        StreamStage<Integer> doubled = p.readFrom(Sources.boundedStream(List.of(1, 2, 3))).withoutTimestamps().map(x -> x * 2);
        doubled.filter(x -> x > 2).writeTo(Sinks.discard());
        doubled.map(x -> x + 1).writeTo(Sinks.discard());

        String plan = p.explain();

        assertThat(plan).contains("vertex fused(source(bounded-stream), map)\n").contains("vertex filter\n").contains("vertex map\n");
    }

    /** A window's first stage runs in the source's vertex when the source feeds nothing else; its partials still go to the keys' owners. */
    @Test
    void windowedAggregationIsPlannedInTwoStagesWithAPartitionedEdge() {
        Pipeline p = Pipeline.create();
        countsBySlide(p.readFrom(Sources.boundedStream(List.of(1L, 2L, 3L))).withTimestamps(x -> x, 0));

        assertThat(p.explain()).contains("vertex fused(source(bounded-stream), accumulate-by-frame)\n    -> sliding-window[0] partitioned distributed")
                               .contains("-> sink(discard)[0] isolated");
    }

    @Test
    void aSourceWithAnotherConsumerFeedsTheWindowsFirstStageThroughAQueue() {
        Pipeline p = Pipeline.create();
        StreamStage<Long> times = p.readFrom(Sources.boundedStream(List.of(1L, 2L, 3L))).withTimestamps(x -> x, 0);
        countsBySlide(times);
        times.writeTo(Sinks.discard());

        assertThat(p.explain()).contains("vertex source(bounded-stream)\n")
                               .contains("-> accumulate-by-frame[0] isolated")
                               .contains("vertex accumulate-by-frame\n    -> sliding-window[0] partitioned distributed");
    }

    private static void countsBySlide(StreamStage<Long> times) {
        times.groupingKey(x -> x % 2)
             .window(WindowDefinition.sliding(10, 2))
             .aggregate(AggregateOperations.counting())
             .writeTo(Sinks.discard());
    }

    @Test
    void fusedChainGivesTheSameResultsAsTheUnfusedFunctions() {
        List<String> out = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(1, 2, 3, 4, 5))
         .map(x -> x * 10)
         .filter(x -> x % 20 != 0)
         .flatMap(x -> io.fournines.engine.core.Traversers.traverseItems(x, -x))
         .map(x -> "v" + x)
         .writeTo(Sinks.list(out));
        try (Engine engine = TestEngines.start()) {
            engine.newJob(p).join();
        }
        assertThat(p.explain()).contains("vertex fused(map, filter, flatMap, map)");
        assertThat(out).containsExactlyInAnyOrder("v10", "v-10", "v30", "v-30", "v50", "v-50");
    }

    /**
     * A window emits a result per key and slide: the stateless stages after it run in its own
     * vertex, on the way out, with the same results as a vertex of their own (the window output
     * consumed twice, which keeps the chain apart).
     */
    @Test
    void statelessStagesAfterAWindowAreFusedIntoItWithTheSameResults() {
        List<Object> fused = new ArrayList<>();
        Pipeline p = Pipeline.create();
        windowedCounts(p).map(r -> r.key() + "=" + r.result()).filter(s -> !s.startsWith("0=")).writeTo(Sinks.list(fused));
        assertThat(p.explain()).contains("vertex fused(sliding-window, map, filter)").doesNotContain("vertex map\n");

        List<Object> apart = new ArrayList<>();
        Pipeline q = Pipeline.create();
        StreamStage<io.fournines.engine.window.KeyedWindowResult<Long, Long>> counts = windowedCounts(q);
        counts.map(r -> r.key() + "=" + r.result()).filter(s -> !s.startsWith("0=")).writeTo(Sinks.list(apart));
        counts.writeTo(Sinks.discard());
        assertThat(q.explain()).contains("vertex fused(map, filter)");

        assertSameResults(p, fused, q, apart);
    }

    /**
     * Fused into the source with the window's first stage, filters run before the frames take the
     * items, the watermarks pass them by (the source reads event time before the chain), and the
     * windows count the same as with the chain and the first stage in vertices of their own (the
     * source consumed twice, which keeps them apart).
     */
    @Test
    void stagesFusedIntoASourceFeedAWindowTheSameAsApart() {
        List<Object> fused = new ArrayList<>();
        Pipeline p = Pipeline.create();
        windowedCountsOfOdd(timedRange(p)).writeTo(Sinks.list(fused));
        assertThat(p.explain()).contains("vertex fused(source(bounded-stream), filter, filter, accumulate-by-frame)\n");

        List<Object> apart = new ArrayList<>();
        Pipeline q = Pipeline.create();
        StreamStage<Long> source = timedRange(q);
        windowedCountsOfOdd(source).writeTo(Sinks.list(apart));
        source.writeTo(Sinks.discard());
        assertThat(q.explain()).contains("vertex fused(filter, filter)\n").contains("vertex accumulate-by-frame\n");

        assertSameResults(p, fused, q, apart);
    }

    private static StreamStage<Long> timedRange(Pipeline p) {
        List<Long> times = new ArrayList<>();
        for (long t = 0; t < 1_000; t++) {
            times.add(t);
        }
        return p.readFrom(Sources.boundedStream(times)).withTimestamps(x -> x, 0);
    }

    private static StreamStage<io.fournines.engine.window.KeyedWindowResult<Long, Long>> windowedCountsOfOdd(StreamStage<Long> times) {
        return windowedCounts(times.filter(x -> x % 2 == 1).filter(x -> x % 5 != 0));
    }

    private static StreamStage<io.fournines.engine.window.KeyedWindowResult<Long, Long>> windowedCounts(Pipeline p) {
        return windowedCounts(timedRange(p));
    }

    private static StreamStage<io.fournines.engine.window.KeyedWindowResult<Long, Long>> windowedCounts(StreamStage<Long> times) {
        return times.groupingKey(x -> x % 3)
                .window(WindowDefinition.sliding(100, 10))
                .aggregate(AggregateOperations.counting());
    }

    /** Runs the fused pipeline and the one kept apart; each wrote into its list, and the lists agree. */
    private static void assertSameResults(Pipeline fusedPipeline, List<Object> fused, Pipeline apartPipeline, List<Object> apart) {
        try (Engine engine = TestEngines.start()) {
            engine.newJob(fusedPipeline).join();
            engine.newJob(apartPipeline).join();
        }
        assertThat(fused).isNotEmpty().containsExactlyInAnyOrderElementsOf(apart);
    }
}
