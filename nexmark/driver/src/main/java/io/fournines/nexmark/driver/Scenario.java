package io.fournines.nexmark.driver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.QueryRegistry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * What a member reads from the runner's resolved {@code scenario.json}
 * (scenarios/docs/member-contract.md), the same for every engine. What the named engine cannot
 * run, according to the query registry ({@link QueryRegistry}), is a {@link ScenarioException}
 * naming the field, raised before anything starts. Fields a member does not need are ignored.
 *
 * @param engine        the engine the scenario runs on ({@code engine}, default {@code fournines})
 * @param query         query name, lower case
 * @param parameters    the query's parameters, defaults from the registry
 * @param rate          events per second over all generator slices
 * @param keys          distinct person and auction ids, 0 for Beam's growing ids
 * @param threads       worker threads of each member, also its number of generator slices
 * @param members       member processes that run the job together
 * @param guarantee     the job's processing guarantee; anything but NONE takes snapshots
 * @param snapshotIntervalMillis time between the starts of two snapshots; 0 with guarantee NONE
 * @param source        where the load comes from: {@code in-process} (the generator) or {@code kafka}
 * @param kafka         the broker and topic of a Kafka load; null until the runner names them
 * @param events        how many events the load has before the job ends by itself ({@code load.events}, set
 *                      by a runner that checks the output: {@code chaos}); the in-process generator makes that
 *                      many, a Kafka load ends at the load generator's end-of-stream records; 0: endless
 * @param execution     how the engine schedules the job: continuous, micro-batch or group
 * @param jobs          copies of the query the member runs in its one engine, each at its share of {@code rate} ({@link #job})
 * @param idle          what the engine's workers do when they have nothing to do ({@code idle}: {@code park-backoff}, the default,
 *                      {@code busy-spin} or {@code jet-backoff}); an engine that idles its own way honours the default only
 * @param seed          the NEXMark generator's seed: {@link GeneratorSpec#SEED}, or a job's own ({@link #job})
 */
public record Scenario(String engine, String query, QueryParameters parameters, double rate, long keys, int threads, int members,
                       double warmupSeconds, double durationSeconds, Guarantee guarantee, long snapshotIntervalMillis, String source,
                       String mode, KafkaEndpoint kafka, long events, Execution execution, int jobs, String idle, long seed) {

    public static final String IN_PROCESS = "in-process";
    public static final String KAFKA = "kafka";
    /** The most jobs one member runs, as the runner's schema allows. */
    public static final int MAX_JOBS = 1000;
    /** The scenario's {@code idle} when it names none: the reference engine's own parking, or a peer's own idling. */
    public static final String DEFAULT_IDLE = "park-backoff";

    /** The job's processing guarantee, as scenario files spell it. */
    public enum Guarantee {
        NONE, AT_LEAST_ONCE, EXACTLY_ONCE;

        public String spelled() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** Reads {@code file} for the member of {@code engine}. */
    public static Scenario read(Path file, String engine) throws ScenarioException {
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
            return parse(root, engine);
        } catch (ScenarioException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    /** Parses a scenario (or a job submitted to a member) for the member of {@code engine}. */
    public static Scenario parse(JsonNode root, String engine) throws ScenarioException {
        if (root == null || !root.isObject()) {
            throw new ScenarioException("must hold a JSON object");
        }
        QueryRegistry registry = QueryRegistry.get();
        QueryRegistry.Engine capabilities = registry.engine(engine);
        String named = root.has("engine") ? Json.text(root, "engine") : "fournines";
        if (!named.equals(engine)) {
            throw new ScenarioException("engine: this is the " + engine + " member; is \"" + named + "\"");
        }
        JsonNode query = Json.object(root, "query");
        String name = Json.text(query, "query.name").toLowerCase(Locale.ROOT);
        QueryRegistry.Query spec = registry.query(name);
        if (spec == null || !capabilities.queries().contains(name)) {
            throw new ScenarioException("query.name: " + engine + " runs " + String.join(", ", capabilities.queries()) + "; is \"" + name + "\"");
        }
        QueryParameters parameters = parameters(query, spec);

        JsonNode load = Json.object(root, "load");
        double rate = Json.number(load, "load.rate");
        if (!(rate >= 1)) {
            throw new ScenarioException("load.rate: must be at least 1 event/s; is " + load.get("rate"));
        }
        long keys = Json.integer(load, "load.keys", 0);
        String source = load.has("source") ? Json.text(load, "load.source") : IN_PROCESS;
        oneOf(source, capabilities.sources(), "load.source", engine + " reads");
        oneOf(source, spec.sources(), "load.source", "query " + name + " reads");
        // Bounded: the in-process generator makes this many; a Kafka load ends at the load generator's end-of-stream records.
        long events = load.has("events") ? Json.integer(load, "load.events", 1) : 0;

        JsonNode cluster = Json.object(root, "cluster");
        int threads = Math.toIntExact(Math.min(Json.integer(cluster, "cluster.threads", 1), 1024));
        int members = cluster.has("members") ? Math.toIntExact(Math.min(Json.integer(cluster, "cluster.members", 1), 1024)) : 1;
        if (members != 1 && !capabilities.clusters()) {
            throw new ScenarioException("cluster.members: a " + engine + " member runs alone (1); is " + members);
        }
        if (source.equals(IN_PROCESS) && load.has("partitions") && Json.integer(load, "load.partitions", 1) != (long) members * threads) {
            throw new ScenarioException("load.partitions: the in-process generator runs one slice per worker thread of each member, so it must equal "
                    + "cluster.members x cluster.threads (" + members * threads + "); is " + load.get("partitions"));
        }
        Guarantee guarantee = guarantee(root, capabilities);
        long snapshotInterval = guarantee == Guarantee.NONE ? 0 : Json.integer(root, "snapshot_interval_ms", 1);
        String mode = root.has("mode") ? Json.text(root, "mode") : "single";
        oneOf(mode, capabilities.modes(), "mode", engine + " runs");
        if (source.equals(KAFKA) && mode.equals("active-active")) {
            throw new ScenarioException("load.source: active-active copies run on the in-process generator so far; is \"kafka\" with mode active-active");
        }
        if (root.has("faults") && !(root.get("faults").isArray() && root.get("faults").isEmpty())) {
            throw new ScenarioException("faults: the runner injects the faults, a member none; must be []");
        }
        double warmup = Json.number(root, "warmup_s");
        double duration = Json.number(root, "duration_s");
        if (warmup < 0) {
            throw new ScenarioException("warmup_s: must be >= 0; is " + warmup);
        }
        if (!(duration > 0)) {
            throw new ScenarioException("duration_s: must be > 0; is " + duration);
        }
        KafkaEndpoint kafka = KafkaEndpoint.of(root);
        if (kafka != null && !source.equals(KAFKA)) {
            throw new ScenarioException(KafkaEndpoint.FIELD + ": only for load.source kafka; it is " + source);
        }
        Execution execution = Execution.parse(root, engine, capabilities.executions());
        long jobs = root.has("jobs") ? Json.integer(root, "jobs", 1) : 1;
        if (jobs > MAX_JOBS) {
            throw new ScenarioException("jobs: must be at most " + MAX_JOBS + "; is " + jobs);
        }
        String idle = root.has("idle") ? Json.text(root, "idle") : DEFAULT_IDLE;
        oneOf(idle, capabilities.idleStrategies(), "idle",
                capabilities.idleStrategies().size() == 1 ? engine + " idles its own way, so it takes only the default" : engine + " idles with");
        return new Scenario(engine, name, parameters, rate, keys, threads, members, warmup, duration, guarantee, snapshotInterval, source,
                mode, kafka, events, execution, (int) jobs, idle, GeneratorSpec.SEED).checkJobs(capabilities);
    }

    /** Several jobs only on an engine that runs them, each at 1 event/s at least, and with nothing that needs per-job plumbing yet. */
    private Scenario checkJobs(QueryRegistry.Engine capabilities) throws ScenarioException {
        if (jobs == 1) {
            return this;
        }
        if (!capabilities.severalJobs()) {
            throw new ScenarioException("jobs: a " + engine + " member runs one job (1); is " + jobs);
        }
        if (jobs > totalRate()) {
            throw new ScenarioException("jobs: must be at most load.rate (" + totalRate() + "): each job runs at load.rate / jobs events/s, "
                    + "at least 1; is " + jobs);
        }
        String needsOneJob = members != 1 ? "cluster.members " + members
                : source.equals(KAFKA) ? "load.source kafka"
                : !mode.equals("single") ? "mode " + mode
                : guarantee != Guarantee.NONE ? "guarantee " + guarantee.spelled()
                : execution.batched() ? "execution " + execution.model()
                : bounded() ? "load.events " + events
                : null;
        if (needsOneJob != null) {
            throw new ScenarioException("jobs: several jobs run on one member alone, from the in-process generator, continuously, without a "
                    + "guarantee and endlessly so far; is " + jobs + " with " + needsOneJob);
        }
        return this;
    }

    /**
     * Job {@code index} (0 ≤ index < {@link #jobs}) alone: a one-job scenario at its share of the rate, {@code rate / jobs}, the first
     * {@code rate mod jobs} jobs one event/s more so the shares add up to the rate; job index k's generator has seed
     * {@link GeneratorSpec#SEED} + k, so the jobs' NEXMark events differ and job 0's are a lone job's.
     */
    public Scenario job(int index) {
        if (index < 0 || index >= jobs) {
            throw new IllegalArgumentException("job " + index + " of " + jobs);
        }
        long share = totalRate() / jobs + (index < totalRate() % jobs ? 1 : 0);
        return new Scenario(engine, query, parameters, share, keys, threads, members, warmupSeconds, durationSeconds, guarantee,
                snapshotIntervalMillis, source, mode, kafka, events, execution, 1, idle, GeneratorSpec.SEED + index);
    }

    /** This scenario fed from {@code endpoint}: the runner names broker and topic on the command line of a member alone. */
    public Scenario withKafka(KafkaEndpoint endpoint) throws ScenarioException {
        if (!source.equals(KAFKA)) {
            throw new ScenarioException("load.source: a Kafka endpoint is only for load.source kafka; it is " + source);
        }
        return new Scenario(engine, query, parameters, rate, keys, threads, members, warmupSeconds, durationSeconds, guarantee,
                snapshotIntervalMillis, source, mode, endpoint, events, execution, jobs, idle, seed);
    }

    /** A scenario about to run must say where its Kafka load is, if it has one. */
    public void checkLoadEndpoint() throws ScenarioException {
        if (source.equals(KAFKA) && kafka == null) {
            throw new ScenarioException("load.source is kafka: the runner must name the broker and topic (" + KafkaEndpoint.FIELD
                    + " {\"bootstrap\": \"HOST:PORT\", \"topic\": T} in the job, or --kafka-bootstrap and --kafka-topic)");
        }
    }

    public boolean windowed() {
        return QueryRegistry.get().query(query).windowed();
    }

    /** The generator this scenario runs: seed 1, the same for every engine (a job of several: its own); endless unless {@link #bounded()}. */
    public GeneratorSpec generator() {
        long perSecond = totalRate();
        return (bounded() ? GeneratorSpec.bounded(perSecond, keys, events) : GeneratorSpec.endless(perSecond, keys)).withSeed(seed);
    }

    /** The rate in whole events/s, at least 1. */
    private long totalRate() {
        return Math.max(1, Math.round(rate));
    }

    /** The job ends by itself after {@link #events} events: the run completes then, before its duration if it can. */
    public boolean bounded() {
        return events > 0;
    }

    private static QueryParameters parameters(JsonNode query, QueryRegistry.Query spec) throws ScenarioException {
        QueryParameters defaults = QueryParameters.defaults();
        boolean windowed = spec.parameters().containsKey("window_ms");
        long window = parameter(query, spec, "window_ms", defaults.windowMs());
        // A query with a window and no slide tumbles.
        long slide = parameter(query, spec, "slide_ms", windowed ? window : defaults.slideMs());
        if (windowed && window % slide != 0) {
            throw new ScenarioException("query.window_ms: must be a multiple of query.slide_ms (" + slide + "); is " + window);
        }
        return new QueryParameters(window, slide, parameter(query, spec, "auction_skip", defaults.auctionSkip()),
                Math.toIntExact(parameter(query, spec, "side_input_rows", defaults.sideInputRows())),
                parameter(query, spec, "person_ttl_ms", defaults.personTtlMs()));
    }

    /** The query's parameter {@code name} in its registry range, its registry default if absent; {@code otherwise} if the query takes none. */
    private static long parameter(JsonNode query, QueryRegistry.Query spec, String name, long otherwise) throws ScenarioException {
        QueryRegistry.Parameter p = spec.parameters().get(name);
        if (p == null) {
            return otherwise;
        }
        long value = query.has(name) ? Json.integer(query, "query." + name, p.min()) : p.defaultValue();
        if (value > p.max()) {
            throw new ScenarioException("query." + name + ": must be at most " + p.max() + "; is " + value);
        }
        return value;
    }

    private static Guarantee guarantee(JsonNode root, QueryRegistry.Engine capabilities) throws ScenarioException {
        String spelled = root.has("guarantee") ? Json.text(root, "guarantee") : "none";
        for (Guarantee g : Guarantee.values()) {
            if (g.spelled().equals(spelled)) {
                oneOf(spelled, capabilities.guarantees(), "guarantee", capabilities.name() + " supports");
                return g;
            }
        }
        throw new ScenarioException("guarantee: must be one of \"none\", \"at-least-once\", \"exactly-once\"; is \"" + spelled + "\"");
    }

    private static void oneOf(String value, Set<String> allowed, String path, String who) throws ScenarioException {
        if (!allowed.contains(value)) {
            throw new ScenarioException(path + ": " + who + " " + (allowed.isEmpty() ? "nothing here (bounded inputs only)"
                    : "\"" + String.join("\", \"", allowed) + "\"") + "; is \"" + value + "\"");
        }
    }
}
