package io.fournines.nexmark.fournines;

import io.fournines.engine.dag.Dag;
import io.fournines.engine.dag.Edge;
import io.fournines.engine.dag.Vertex;
import io.fournines.engine.execution.JobMetrics;
import io.fournines.engine.execution.VertexSamples;
import io.fournines.nexmark.driver.JobGraph;
import io.fournines.nexmark.driver.VertexCounters;

import java.util.LinkedHashMap;
import java.util.Map;

/** The reference engine's DAG and job metrics in the member contract's terms (graph.json, vertices.csv). */
final class DagGraphs {

    private DagGraphs() {
    }

    static JobGraph of(Dag dag, int cooperativeThreads) {
        return new JobGraph(
                dag.vertices().stream().map(v -> new JobGraph.Vertex(v.name(), v.parallelismOn(cooperativeThreads))).toList(),
                dag.edges().stream().map(DagGraphs::edge).toList());
    }

    private static JobGraph.Edge edge(Edge e) {
        return JobGraph.Edge.of(e.source().name(), e.destination().name(), e.routingPolicy(), e.isDistributed());
    }

    /** {@code metrics} are the job's counters by {@code vertex.counter} ({@link io.fournines.engine.job.Job#metrics()}). */
    static Map<String, VertexCounters> counters(JobGraph graph, Map<String, Long> metrics) {
        Map<String, VertexCounters> byVertex = new LinkedHashMap<>();
        for (JobGraph.Vertex v : graph.vertices()) {
            String n = v.name() + ".";
            byVertex.put(v.name(), new VertexCounters(metrics.getOrDefault(n + JobMetrics.ITEMS_IN, 0L), metrics.getOrDefault(n + JobMetrics.ITEMS_OUT, 0L),
                    metrics.getOrDefault(n + VertexSamples.SAMPLED, 0L), metrics.getOrDefault(n + VertexSamples.BUSY, 0L),
                    metrics.getOrDefault(n + VertexSamples.BACKPRESSURED, 0L), metrics.getOrDefault(n + VertexSamples.QUEUED, 0L),
                    metrics.getOrDefault(n + VertexSamples.QUEUE_ROOM, 0L)));
        }
        return byVertex;
    }
}
