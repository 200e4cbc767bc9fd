package io.fournines.nexmark.driver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.nexmark.query.QueryParameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a peer-engine member reads from the runner's resolved {@code scenario.json}
 * (scenarios/README.md, "The member contract"). A needed field that is missing or invalid, a query
 * the engine does not run, or a setting it cannot honour is a {@link ScenarioException} naming the
 * field, raised before anything starts.
 *
 * @param engine  the engine this member runs ({@code engine} must name it)
 * @param rate    events per second over all generator slices
 * @param keys    distinct person and auction ids, 0 for Beam's growing ids
 * @param threads the engine's worker threads (Jet cooperative threads, Flink parallelism), also
 *                the number of generator slices
 */
public record DriverScenario(String engine, String query, QueryParameters parameters, long rate, long keys, int threads,
                             double warmupSeconds, double durationSeconds) {

    public static final List<String> WINDOWED = List.of("q5", "q7", "q8");

    public static DriverScenario read(Path file, String engine, Set<String> queries) throws ScenarioException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file");
        } catch (JsonProcessingException e) {
            throw new ScenarioException(file + ": not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
        try {
            return parse(root, engine, queries);
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    static DriverScenario parse(JsonNode root, String engine, Set<String> queries) throws ScenarioException {
        if (root == null || !root.isObject()) {
            throw new ScenarioException("must hold a JSON object");
        }
        String named = root.path("engine").asText("fournines");
        if (!named.equals(engine)) {
            throw new ScenarioException("engine: this is the " + engine + " member; is \"" + named + "\"");
        }
        JsonNode query = Json.object(root, "query");
        String name = Json.text(query, "query.name").toLowerCase(Locale.ROOT);
        if (!queries.contains(name)) {
            throw new ScenarioException("query.name: " + engine + " runs " + String.join(", ", new TreeSet<>(queries))
                    + " in this harness; is \"" + name + "\"");
        }
        QueryParameters parameters = QueryParameters.defaults();
        if (WINDOWED.contains(name)) {
            long window = Json.integer(query, "query.window_ms", 1);
            long slide = name.equals("q5") ? Json.integer(query, "query.slide_ms", 1) : window;
            if (window % slide != 0) {
                throw new ScenarioException("query.window_ms: must be a multiple of query.slide_ms (" + slide + "); is " + window);
            }
            parameters = parameters.withWindow(window, slide);
        }
        if (name.equals("q2") && query.has("auction_skip")) {
            parameters = parameters.withAuctionSkip(Json.integer(query, "query.auction_skip", 1));
        }
        JsonNode load = Json.object(root, "load");
        long rate = Json.integer(load, "load.rate", 1);
        long keys = Json.integer(load, "load.keys", 0);
        Json.requireIfPresent(load, "source", "load.source", "in-process");
        JsonNode cluster = Json.object(root, "cluster");
        int threads = Math.toIntExact(Math.min(Json.integer(cluster, "cluster.threads", 1), 1024));
        if (cluster.has("members") && Json.integer(cluster, "cluster.members", 1) != 1) {
            throw new ScenarioException("cluster.members: a peer-engine member runs alone (1); is " + cluster.get("members"));
        }
        if (load.has("partitions") && Json.integer(load, "load.partitions", 1) != threads) {
            throw new ScenarioException("load.partitions: the in-process generator runs one slice per thread, so it must equal cluster.threads ("
                    + threads + "); is " + load.get("partitions"));
        }
        Json.requireIfPresent(root, "guarantee", "guarantee", "none");
        Json.requireIfPresent(root, "mode", "mode", "single");
        if (root.has("faults") && !(root.get("faults").isArray() && root.get("faults").isEmpty())) {
            throw new ScenarioException("faults: a peer-engine member injects no faults; must be []");
        }
        double warmup = Json.number(root, "warmup_s");
        double duration = Json.number(root, "duration_s");
        if (warmup < 0) {
            throw new ScenarioException("warmup_s: must be >= 0; is " + warmup);
        }
        if (!(duration > 0)) {
            throw new ScenarioException("duration_s: must be > 0; is " + duration);
        }
        return new DriverScenario(engine, name, parameters, rate, keys, threads, warmup, duration);
    }

    public boolean windowed() {
        return WINDOWED.contains(query);
    }

    /** The generator this scenario runs: endless, seed 1, like the reference member. */
    public GeneratorSpec generator() {
        return GeneratorSpec.endless(rate, keys);
    }
}
