package io.fournines.engine.dag;

import io.fournines.engine.core.Processor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A directed acyclic graph of vertices and edges: what a job runs. */
public final class Dag {

    private final Map<String, Vertex> vertices = new LinkedHashMap<>();
    private final List<Edge> edges = new ArrayList<>();

    public Vertex newVertex(String name, Supplier<? extends Processor> processorSupplier) {
        if (vertices.containsKey(name)) {
            throw new IllegalArgumentException("the DAG already has a vertex named '" + name + "'");
        }
        Vertex vertex = new Vertex(name, processorSupplier);
        vertices.put(name, vertex);
        return vertex;
    }

    public Dag edge(Edge edge) {
        requireMember(edge.source());
        requireMember(edge.destination());
        for (Edge e : edges) {
            if (e.source() == edge.source() && e.sourceOrdinal() == edge.sourceOrdinal()) {
                throw new IllegalArgumentException("output ordinal " + edge.sourceOrdinal() + " of '" + edge.source() + "' already has an edge: " + e);
            }
            if (e.destination() == edge.destination() && e.destOrdinal() == edge.destOrdinal()) {
                throw new IllegalArgumentException("input ordinal " + edge.destOrdinal() + " of '" + edge.destination() + "' already has an edge: " + e);
            }
        }
        edges.add(edge);
        return this;
    }

    public List<Vertex> vertices() {
        return List.copyOf(vertices.values());
    }

    public Vertex vertex(String name) {
        return vertices.get(name);
    }

    public List<Edge> edges() {
        return List.copyOf(edges);
    }

    /** The vertex's input edges, by input ordinal. */
    public List<Edge> inboundEdges(Vertex vertex) {
        return edges.stream().filter(e -> e.destination() == vertex).sorted(Comparator.comparingInt(Edge::destOrdinal)).toList();
    }

    /** The vertex's output edges, by output ordinal. */
    public List<Edge> outboundEdges(Vertex vertex) {
        return edges.stream().filter(e -> e.source() == vertex).sorted(Comparator.comparingInt(Edge::sourceOrdinal)).toList();
    }

    /**
     * Checks that ordinals are contiguous from 0 and that there is no cycle; returns the vertices in
     * topological order (sources first).
     */
    public List<Vertex> validate() {
        for (Vertex v : vertices.values()) {
            requireContiguous(v, "input", inboundEdges(v).stream().map(Edge::destOrdinal).toList());
            requireContiguous(v, "output", outboundEdges(v).stream().map(Edge::sourceOrdinal).toList());
        }
        List<Vertex> order = new ArrayList<>();
        Map<Vertex, Integer> remainingInputs = new LinkedHashMap<>();
        for (Vertex v : vertices.values()) {
            remainingInputs.put(v, inboundEdges(v).size());
        }
        List<Vertex> ready = new ArrayList<>(remainingInputs.entrySet().stream().filter(e -> e.getValue() == 0).map(Map.Entry::getKey).toList());
        while (!ready.isEmpty()) {
            Vertex v = ready.remove(0);
            order.add(v);
            for (Edge e : outboundEdges(v)) {
                if (remainingInputs.merge(e.destination(), -1, Integer::sum) == 0) {
                    ready.add(e.destination());
                }
            }
        }
        if (order.size() != vertices.size()) {
            List<String> inCycle = vertices.values().stream().filter(v -> !order.contains(v)).map(Vertex::name).toList();
            throw new IllegalArgumentException("the DAG has a cycle through " + inCycle);
        }
        return order;
    }

    private static void requireContiguous(Vertex v, String direction, List<Integer> ordinals) {
        for (int i = 0; i < ordinals.size(); i++) {
            if (ordinals.get(i) != i) {
                throw new IllegalArgumentException("vertex '" + v + "': " + direction + " ordinals must be 0.." + (ordinals.size() - 1) + ", got " + ordinals);
            }
        }
    }

    private void requireMember(Vertex v) {
        if (vertices.get(v.name()) != v) {
            throw new IllegalArgumentException("vertex '" + v + "' does not belong to this DAG");
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("dag\n");
        for (Vertex v : validate()) {
            sb.append("  vertex ").append(v.name());
            if (v.localParallelism() != Vertex.DEFAULT_PARALLELISM) {
                sb.append(" (parallelism ").append(v.localParallelism()).append(')');
            }
            sb.append('\n');
            for (Edge e : outboundEdges(v)) {
                sb.append("    -> ").append(e.destination().name()).append('[').append(e.destOrdinal()).append("] ")
                  .append(e.routingPolicy().name().toLowerCase());
                if (e.priority() != 0) {
                    sb.append(" priority ").append(e.priority());
                }
                if (e.isDistributed()) {
                    sb.append(" distributed");
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
