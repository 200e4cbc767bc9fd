package io.fournines.nexmark.jet;

import com.hazelcast.jet.core.metrics.JobMetrics;
import com.hazelcast.jet.core.metrics.Measurement;
import com.hazelcast.jet.core.metrics.MetricNames;
import com.hazelcast.jet.core.metrics.MetricTags;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.test.TestSources;
import io.fournines.nexmark.driver.JobGraph;
import io.fournines.nexmark.driver.VertexCounters;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A Jet pipeline's DAG as the contract's graph, and Jet's metrics as its cumulative vertex counters. */
class JetGraphsTest {

    private static JetGraphs graphs() {
        Pipeline p = Pipeline.create();
        p.readFrom(TestSources.items(1, 2, 3)).groupingKey(i -> i % 2).aggregate(com.hazelcast.jet.aggregate.AggregateOperations.counting())
         .writeTo(Sinks.logger());
        return new JetGraphs(p.toDag(), 2);
    }

    @Test
    void theGraphNamesEveryVertexWithItsInstancesAndEveryEdgeBetweenThem() {
        JobGraph graph = graphs().graph();
        List<String> names = graph.vertices().stream().map(JobGraph.Vertex::name).toList();
        assertThat(names).hasSizeGreaterThanOrEqualTo(3);
        assertThat(graph.vertices()).allSatisfy(v -> assertThat(v.parallelism()).isPositive());
        assertThat(graph.edges()).isNotEmpty().allSatisfy(e -> assertThat(names).contains(e.from(), e.to()));
        assertThat(graph.edges()).anySatisfy(e -> assertThat(e.routing()).isEqualTo("partitioned"));
    }

    @Test
    void countersSumAVertexsProcessorsAndNeverGoBack() throws InterruptedException {
        JetGraphs graphs = graphs();
        String vertex = graphs.graph().vertices().get(0).name();
        Map<String, VertexCounters> first = graphs.counters(metrics(vertex, 10, 7, 512, 1024));
        assertThat(first.get(vertex).itemsIn()).isEqualTo(20);  // two processors of 10 each
        assertThat(first.get(vertex).itemsOut()).isEqualTo(14);
        assertThat(first.get(vertex).sampledMicros()).as("Jet says nothing of its workers' time").isZero();
        Thread.sleep(5);
        Map<String, VertexCounters> second = graphs.counters(JobMetrics.empty());  // a reading without the vertex
        assertThat(second.get(vertex).itemsIn()).isEqualTo(20);
        assertThat(second.get(vertex).queueRoomMicros()).isEqualTo(first.get(vertex).queueRoomMicros());
        Thread.sleep(5);
        VertexCounters third = graphs.counters(metrics(vertex, 15, 9, 256, 1024)).get(vertex);
        assertThat(third.itemsIn()).isEqualTo(30);
        assertThat(third.queueRoomMicros()).isGreaterThan(first.get(vertex).queueRoomMicros());
        // The queues' fill, time-weighted: between a quarter and a half full over the readings.
        double fill = (double) third.queuedItemMicros() / third.queueRoomMicros();
        assertThat(fill).isBetween(0.25, 0.5);
    }

    /** Two processors of {@code vertex}, each with these readings. */
    private static JobMetrics metrics(String vertex, long received, long emitted, long queued, long capacity) {
        long now = System.currentTimeMillis();
        List<Measurement> in = List.of(m(MetricNames.RECEIVED_COUNT, received, now, vertex, "0"), m(MetricNames.RECEIVED_COUNT, received, now, vertex, "1"));
        List<Measurement> out = List.of(m(MetricNames.EMITTED_COUNT, emitted, now, vertex, "0"), m(MetricNames.EMITTED_COUNT, emitted, now, vertex, "1"));
        List<Measurement> size = List.of(m(MetricNames.QUEUES_SIZE, queued, now, vertex, "0"), m(MetricNames.QUEUES_SIZE, queued, now, vertex, "1"));
        List<Measurement> room = List.of(m(MetricNames.QUEUES_CAPACITY, capacity, now, vertex, "0"), m(MetricNames.QUEUES_CAPACITY, capacity, now, vertex, "1"));
        return JobMetrics.of(Map.of(MetricNames.RECEIVED_COUNT, in, MetricNames.EMITTED_COUNT, out, MetricNames.QUEUES_SIZE, size,
                MetricNames.QUEUES_CAPACITY, room));
    }

    private static Measurement m(String metric, long value, long time, String vertex, String processor) {
        return Measurement.of(metric, value, time, Map.of(MetricTags.VERTEX, vertex, MetricTags.PROCESSOR, processor));
    }
}
