package io.fournines.member;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.nexmark.query.QueryParameters;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the member reads from the runner's resolved {@code scenario.json}. Fields it does not need
 * are ignored; a needed field that is missing or invalid, or a setting this member cannot honour,
 * is a {@link ScenarioException} naming the field.
 *
 * @param query      query name, lower case
 * @param parameters the query's parameters
 * @param rate       events per second over all generator slices
 * @param keys       distinct person and auction ids, 0 for Beam's growing ids
 * @param threads    cooperative worker threads of each member, also its number of generator slices
 * @param members    member processes that run the job together
 * @param guarantee  the job's processing guarantee; anything but NONE takes snapshots
 * @param snapshotIntervalMillis time between the starts of two snapshots; 0 with guarantee NONE
 * @param source     where the load comes from: {@code in-process} (the generator) or {@code kafka}
 */
record Scenario(String query, QueryParameters parameters, double rate, long keys, int threads, int members, double warmupSeconds,
                double durationSeconds, ProcessingGuarantee guarantee, long snapshotIntervalMillis, String source) {

    /**
     * The queries the member runs. Q3, Q4 and Q6 join unwindowed streams whose state grows without
     * bound, so an endless run would measure the heap filling up, not the query.
     */
    static final List<String> SUPPORTED = List.of("q0", "q1", "q2", "q5", "q7", "q8", "q13", TradesPerSecond.NAME);
    private static final List<String> WINDOWED = List.of("q5", "q7", "q8", TradesPerSecond.NAME);
    static final String IN_PROCESS = "in-process";
    static final String KAFKA = "kafka";

    static Scenario read(Path file) throws ScenarioException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ScenarioException(file + ": no such file");
        } catch (JsonProcessingException e) {
            throw new ScenarioException(file + ": not JSON: " + e.getOriginalMessage() + " at line " + e.getLocation().getLineNr());
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read: " + e.getMessage());
        }
        try {
            return parse(root);
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    static Scenario parse(JsonNode root) throws ScenarioException {
        if (root == null || !root.isObject()) {
            throw new ScenarioException("must hold a JSON object");
        }
        JsonNode query = object(root, "query");
        String name = text(query, "query.name").toLowerCase(Locale.ROOT);
        if (!SUPPORTED.contains(name)) {
            throw new ScenarioException("query.name: the member runs " + String.join(", ", SUPPORTED) + "; is \"" + name + "\"");
        }
        QueryParameters parameters = QueryParameters.defaults();
        if (WINDOWED.contains(name)) {
            long window = integer(query, "query.window_ms", 1);
            long slide = name.equals("q5") || name.equals(TradesPerSecond.NAME) ? integer(query, "query.slide_ms", 1) : window;
            if (window % slide != 0) {
                throw new ScenarioException("query.window_ms: must be a multiple of query.slide_ms (" + slide + "); is " + window);
            }
            parameters = parameters.withWindow(window, slide);
        }
        if (name.equals("q2") && query.has("auction_skip")) {
            parameters = parameters.withAuctionSkip(integer(query, "query.auction_skip", 1));
        }
        if (name.equals("q13")) {
            parameters = parameters.withSideInputRows(Math.toIntExact(Math.min(integer(query, "query.side_input_rows", 1), Integer.MAX_VALUE)));
        }

        JsonNode load = object(root, "load");
        double rate = number(load, "load.rate");
        if (!(rate >= 1)) {
            throw new ScenarioException("load.rate: must be at least 1 event/s; is " + load.get("rate"));
        }
        long keys = integer(load, "load.keys", 0);
        String source = load.has("source") ? text(load, "load.source") : IN_PROCESS;
        if (!source.equals(IN_PROCESS) && !source.equals(KAFKA)) {
            throw new ScenarioException("load.source: the member reads \"in-process\" or \"kafka\"; is \"" + source + "\"");
        }
        if (name.equals(TradesPerSecond.NAME) && !source.equals(KAFKA)) {
            throw new ScenarioException("load.source: query trades reads stock trades, which only the Kafka load generator makes; must be \"kafka\"");
        }

        JsonNode cluster = object(root, "cluster");
        int threads = Math.toIntExact(Math.min(integer(cluster, "cluster.threads", 1), 1024));
        int members = cluster.has("members") ? Math.toIntExact(Math.min(integer(cluster, "cluster.members", 1), 1024)) : 1;
        if (source.equals(IN_PROCESS) && load.has("partitions") && integer(load, "load.partitions", 1) != (long) members * threads) {
            throw new ScenarioException("load.partitions: the in-process generator runs one slice per worker thread of each member, so it must equal "
                    + "cluster.members x cluster.threads (" + members * threads + "); is " + load.get("partitions"));
        }
        ProcessingGuarantee guarantee = guarantee(root);
        long snapshotInterval = guarantee == ProcessingGuarantee.NONE ? 0 : integer(root, "snapshot_interval_ms", 1);
        // active-active: each copy is a cluster of its own; the runner tells it its part (ActiveActiveCopy).
        if (root.has("mode") && !List.of("single", "active-active").contains(root.get("mode").asText())) {
            throw new ScenarioException("mode: the member supports \"single\" and \"active-active\"; is " + root.get("mode"));
        }
        if (source.equals(KAFKA) && root.path("mode").asText().equals("active-active")) {
            throw new ScenarioException("load.source: active-active copies run on the in-process generator so far; is \"kafka\" with mode active-active");
        }
        if (root.has("faults") && !(root.get("faults").isArray() && root.get("faults").isEmpty())) {
            throw new ScenarioException("faults: the member injects no faults; must be []");
        }

        double warmup = number(root, "warmup_s");
        double duration = number(root, "duration_s");
        if (warmup < 0) {
            throw new ScenarioException("warmup_s: must be >= 0; is " + warmup);
        }
        if (!(duration > 0)) {
            throw new ScenarioException("duration_s: must be > 0; is " + duration);
        }
        return new Scenario(name, parameters, rate, keys, threads, members, warmup, duration, guarantee, snapshotInterval, source);
    }

    private static ProcessingGuarantee guarantee(JsonNode root) throws ScenarioException {
        JsonNode node = root.get("guarantee");
        if (node == null) {
            return ProcessingGuarantee.NONE;
        }
        return switch (node.asText()) {
            case "none" -> ProcessingGuarantee.NONE;
            case "at-least-once" -> ProcessingGuarantee.AT_LEAST_ONCE;
            case "exactly-once" -> ProcessingGuarantee.EXACTLY_ONCE;
            default -> throw new ScenarioException("guarantee: must be one of \"none\", \"at-least-once\", \"exactly-once\"; is " + node);
        };
    }

    boolean windowed() {
        return WINDOWED.contains(query);
    }

    private static JsonNode field(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = parent.get(path.substring(path.lastIndexOf('.') + 1));
        if (node == null || node.isNull()) {
            throw new ScenarioException(path + ": missing");
        }
        return node;
    }

    private static JsonNode object(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isObject()) {
            throw new ScenarioException(path + ": must be an object; is " + node);
        }
        return node;
    }

    private static String text(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isTextual()) {
            throw new ScenarioException(path + ": must be a string; is " + node);
        }
        return node.asText();
    }

    private static double number(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isNumber()) {
            throw new ScenarioException(path + ": must be a number; is " + node);
        }
        return node.asDouble();
    }

    private static long integer(JsonNode parent, String path, long min) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new ScenarioException(path + ": must be an integer; is " + node);
        }
        if (node.asLong() < min) {
            throw new ScenarioException(path + ": must be at least " + min + "; is " + node.asLong());
        }
        return node.asLong();
    }
}
