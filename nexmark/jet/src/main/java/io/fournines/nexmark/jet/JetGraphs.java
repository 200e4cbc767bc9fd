package io.fournines.nexmark.jet;

import com.hazelcast.jet.core.DAG;
import com.hazelcast.jet.core.Edge;
import com.hazelcast.jet.core.Vertex;
import com.hazelcast.jet.core.metrics.JobMetrics;
import com.hazelcast.jet.core.metrics.Measurement;
import com.hazelcast.jet.core.metrics.MetricNames;
import com.hazelcast.jet.core.metrics.MetricTags;
import io.fournines.nexmark.driver.JobGraph;
import io.fournines.nexmark.driver.VertexCounters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jet's DAG and job metrics in the member contract's terms (graph.json, vertices.csv): items in and
 * out per vertex, and its input queues' fill, which Jet reports as gauges; this turns them into the
 * contract's time-weighted counters by weighting each reading with the time since the last. Jet does
 * not say where its workers' time goes, so its vertices are never sampled busy or backpressured.
 * Jet collects its metrics every 5 s by default (left so: a peer runs as it ships), so its rows move
 * in steps of 5 s.
 */
final class JetGraphs {

    private final JobGraph graph;
    /** Per vertex: items in and out as last reported, and items waiting × µs and capacity × µs summed over the readings so far. */
    private final Map<String, long[]> totals = new LinkedHashMap<>();
    private long lastNanos;

    JetGraphs(DAG dag, int threads) {
        List<JobGraph.Vertex> vertices = new ArrayList<>();
        List<JobGraph.Edge> edges = new ArrayList<>();
        for (Vertex v : dag) {
            vertices.add(new JobGraph.Vertex(v.getName(), v.determineLocalParallelism(threads)));
            for (Edge e : dag.getOutboundEdges(v.getName())) {
                edges.add(JobGraph.Edge.of(e.getSourceName(), e.getDestName(), e.getRoutingPolicy(), e.isDistributed()));
            }
            totals.put(v.getName(), new long[4]);
        }
        this.graph = new JobGraph(vertices, edges);
        this.lastNanos = System.nanoTime();
    }

    JobGraph graph() {
        return graph;
    }

    /** The vertices' counters now, from the job's latest metrics. */
    synchronized Map<String, VertexCounters> counters(JobMetrics metrics) {
        long now = System.nanoTime();
        long micros = (now - lastNanos) / 1_000;
        lastNanos = now;
        Map<String, VertexCounters> byVertex = new LinkedHashMap<>();
        for (JobGraph.Vertex v : graph.vertices()) {
            long[] t = totals.get(v.name());
            // A snapshot that lacks a processor's reading must not move a cumulative count back.
            t[0] = Math.max(t[0], sum(metrics, MetricNames.RECEIVED_COUNT, v.name()));
            t[1] = Math.max(t[1], sum(metrics, MetricNames.EMITTED_COUNT, v.name()));
            t[2] += sum(metrics, MetricNames.QUEUES_SIZE, v.name()) * micros;
            t[3] += sum(metrics, MetricNames.QUEUES_CAPACITY, v.name()) * micros;
            byVertex.put(v.name(), new VertexCounters(t[0], t[1], 0, 0, 0, t[2], t[3]));
        }
        return byVertex;
    }

    private static long sum(JobMetrics metrics, String metric, String vertex) {
        long total = 0;
        for (Measurement m : metrics.get(metric)) {
            if (vertex.equals(m.tag(MetricTags.VERTEX))) {
                total += m.value();
            }
        }
        return total;
    }
}
