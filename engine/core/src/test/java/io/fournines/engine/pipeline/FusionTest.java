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
        p.readFrom(Sources.items(1, 2, 3))
         .map(x -> x * 2)
         .filter(x -> x > 2)
         .map(x -> "n" + x)
         .writeTo(Sinks.discard());

        String plan = p.explain();

        assertThat(plan).contains("vertex fused(map, filter, map)");
        assertThat(plan).doesNotContain("vertex map\n").doesNotContain("vertex filter");
    }

    @Test
    void aStageWithTwoConsumersEndsTheChain() {
        Pipeline p = Pipeline.create();
        StreamStage<Integer> doubled = p.readFrom(Sources.boundedStream(List.of(1, 2, 3))).withoutTimestamps().map(x -> x * 2);
        doubled.filter(x -> x > 2).writeTo(Sinks.discard());
        doubled.map(x -> x + 1).writeTo(Sinks.discard());

        String plan = p.explain();

        assertThat(plan).contains("vertex map\n").contains("vertex filter\n").contains("vertex map-2\n");
    }

    @Test
    void windowedAggregationIsPlannedInTwoStagesWithAPartitionedEdge() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(List.of(1L, 2L, 3L)))
         .withTimestamps(x -> x, 0)
         .groupingKey(x -> x % 2)
         .window(WindowDefinition.sliding(10, 2))
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.discard());

        String plan = p.explain();

        assertThat(plan).contains("-> accumulate-by-frame[0] isolated")
                        .contains("-> sliding-window[0] partitioned distributed")
                        .contains("-> sink(discard)[0] isolated");
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
}
