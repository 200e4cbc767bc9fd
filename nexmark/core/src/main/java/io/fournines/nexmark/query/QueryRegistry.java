package io.fournines.nexmark.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one registry of queries and of what each engine's member runs ({@code queries.json} beside
 * this class, which the Python runner reads too): a query's input, shape, parameters and sources;
 * an engine's queries, sources, guarantees, modes, execution models and whether it runs on several members.
 */
public final class QueryRegistry {

    /** A query parameter, an integer in {@code [min, max]}. */
    public record Parameter(String name, long min, long max, long defaultValue) {
    }

    /**
     * @param input       the events it reads: {@code nexmark} or {@code trades}
     * @param windowed    its results belong to windows (latency from the window's end)
     * @param sources     where an endless run of it may read from
     */
    public record Query(String name, String input, boolean windowed, Map<String, Parameter> parameters, Set<String> sources) {
    }

    /**
     * @param clusters    its member runs as several processes ({@code cluster.members} > 1)
     * @param severalJobs one member runs several copies of the query ({@code jobs} > 1)
     * @param idleStrategies the scenario's {@code idle} values its member honours; {@code park-backoff} alone: it idles its own way
     */
    public record Engine(String name, List<String> queries, Set<String> sources, Set<String> guarantees, Set<String> modes,
                         Set<String> executions, boolean clusters, boolean severalJobs, Set<String> idleStrategies) {
    }

    private static final QueryRegistry INSTANCE = load();

    private final Map<String, Query> queries;
    private final Map<String, Engine> engines;

    private QueryRegistry(Map<String, Query> queries, Map<String, Engine> engines) {
        this.queries = queries;
        this.engines = engines;
    }

    public static QueryRegistry get() {
        return INSTANCE;
    }

    /** The query called {@code name} (any case); null when there is none. */
    public Query query(String name) {
        return queries.get(name.toLowerCase(Locale.ROOT));
    }

    /** The queries that read {@code input} ({@code nexmark}, {@code trades}). */
    public List<String> queriesReading(String input) {
        return queries.values().stream().filter(q -> q.input().equals(input)).map(Query::name).toList();
    }

    /** The engine called {@code name}; null when there is none. */
    public Engine engine(String name) {
        return engines.get(name);
    }

    private static QueryRegistry load() {
        try (InputStream in = QueryRegistry.class.getResourceAsStream("queries.json")) {
            if (in == null) {
                throw new IllegalStateException("queries.json is missing beside " + QueryRegistry.class.getName());
            }
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, Query> queries = new LinkedHashMap<>();
            root.get("queries").fields().forEachRemaining(e -> queries.put(e.getKey(), query(e.getKey(), e.getValue())));
            Map<String, Engine> engines = new LinkedHashMap<>();
            root.get("engines").fields().forEachRemaining(e -> engines.put(e.getKey(), engine(e.getKey(), e.getValue())));
            return new QueryRegistry(queries, engines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read queries.json", e);
        }
    }

    private static Query query(String name, JsonNode q) {
        Map<String, Parameter> parameters = new LinkedHashMap<>();
        q.get("parameters").fields().forEachRemaining(e -> parameters.put(e.getKey(),
                new Parameter(e.getKey(), e.getValue().get("min").asLong(), e.getValue().get("max").asLong(), e.getValue().get("default").asLong())));
        return new Query(name, q.get("input").asText(), q.get("shape").asText().equals("windowed"), parameters, strings(q.get("sources")));
    }

    private static Engine engine(String name, JsonNode e) {
        return new Engine(name, List.copyOf(strings(e.get("queries"))), strings(e.get("sources")), strings(e.get("guarantees")),
                strings(e.get("modes")), strings(e.get("executions")), e.get("clusters").asBoolean(),
                e.get("several_jobs").asBoolean(), strings(e.get("idle_strategies")));
    }

    /** In the file's order. */
    private static Set<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return Collections.unmodifiableSet(new LinkedHashSet<>(values));
    }
}
