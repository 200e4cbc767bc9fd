package io.fournines.nexmark.driver;

import java.util.List;
import java.util.Locale;

/**
 * A job's graph as one member runs it, for {@code graph.json} (scenarios/docs/member-contract.md):
 * the dashboard draws it and the report names its vertices.
 *
 * @param vertices in the order the engine lists them
 * @param edges    between vertices of {@code vertices}, by name
 */
public record JobGraph(List<Vertex> vertices, List<Edge> edges) {

    /** @param parallelism instances on this member */
    public record Vertex(String name, int parallelism) {
    }

    /**
     * @param routing     how items choose their consumer instance: the engine's own name for it (e.g. partitioned, broadcast)
     * @param distributed whether items cross members
     */
    public record Edge(String from, String to, String routing, boolean distributed) {

        /** An edge whose routing is an engine's constant, spelled as the contract does (ALL_TO_ONE: all-to-one). */
        public static Edge of(String from, String to, Enum<?> routing, boolean distributed) {
            return new Edge(from, to, routing.name().toLowerCase(Locale.ROOT).replace('_', '-'), distributed);
        }
    }
}
