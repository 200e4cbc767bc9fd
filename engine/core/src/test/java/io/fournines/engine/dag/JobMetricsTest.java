package io.fournines.engine.dag;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.processor.AccumulateByFrameP;
import io.fournines.engine.processor.ForEachSinkP;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JobMetricsTest {

    /** Three items on time, a watermark at 100, then two items behind it. */
    static final class LateArrivalsSource extends AbstractProcessor {
        private final Object[] script = {10L, 20L, 30L, new Watermark(100), 50L, 60L};
        private int next;

        @Override
        public boolean complete() {
            for (; next < script.length; next++) {
                if (!tryEmit(script[next])) {
                    return false;
                }
            }
            return true;
        }
    }

    @Test
    void countsItemsPerVertexAndLateItems() {
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", LateArrivalsSource::new).localParallelism(1);
        Vertex accumulate = dag.newVertex("accumulate", () -> new AccumulateByFrameP((Long t) -> "k", (Long t) -> t,
                WindowDefinition.tumbling(10), AggregateOperations.counting())).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(item -> { })).localParallelism(1);
        dag.edge(Edge.between(source, accumulate));
        dag.edge(Edge.between(accumulate, sink));

        Map<String, Long> metrics;
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(1))) {
            Job job = engine.newJob(dag);
            job.join();
            metrics = job.metrics();
        }

        assertThat(metrics).containsEntry("accumulate.itemsIn", 5L)
                           .containsEntry("accumulate.lateItems", 2L)
                           .containsEntry("source.itemsOut", 5L)
                           // three frames, one partial each
                           .containsEntry("accumulate.itemsOut", 3L)
                           .containsEntry("sink.itemsIn", 3L);
    }
}
