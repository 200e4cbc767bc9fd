package io.fournines.member;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.cluster.ClusterJob;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.snapshot.SnapshotStore;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.latency.LatencyLog;
import io.fournines.nexmark.latency.LatencyLogs;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.NexmarkQuery;
import io.fournines.nexmark.query.PerEventQuery;
import io.fournines.nexmark.query.Queries;
import io.fournines.nexmark.run.MemberJson;
import io.fournines.nexmark.run.RunSampler;
import io.fournines.nexmark.run.StoppableRun;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * One run of the member: the scenario's query on an in-process engine, fed by the open-loop NEXMark
 * generator (one slice per worker thread), for warm-up plus duration. Once a second, on one clock,
 * it writes a latency interval, a throughput row and a CPU row, and prints a progress line. On a
 * cluster, a restart after a lost member goes on writing the same files, and prints a
 * {@code recovered} line once this member runs the job again.
 */
final class MemberRun implements StoppableRun {

    /** The generator's seed: fixed, so every run of a scenario sees the same event sequence. */
    private static final long SEED = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SHUTDOWN_WAIT_SECONDS = 5;

    private final Scenario scenario;
    private final Path dir;
    private final PrintStream out;
    /** Null when this member runs the job alone. */
    private final ClusterPart cluster;
    private volatile Job job;
    private volatile Throwable externalFailure;
    private volatile Throwable failure;
    private final CountDownLatch wake = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;

    private final ScheduleMonitor monitor = new ScheduleMonitor();
    /** Where the load comes from when the scenario's load.source is kafka; null: the in-process generator. */
    private final KafkaLoad.Endpoint kafkaEndpoint;
    private KafkaLoad kafka;
    private LoadProgress load = LoadProgress.of(monitor);
    /** Events that reached the query's first stage (counted there, fused into it). */
    private final LongAdder processed = new LongAdder();
    private final InMemorySnapshotStore snapshotStore = new InMemorySnapshotStore();
    /** Created with the first windowed pipeline; null for a per-event query. */
    private WindowLatencyRecorder windows;
    private long t0Nanos;
    /** The restarts after lost members, as member.json lists them. */
    private final List<ObjectNode> recoveries = new ArrayList<>();
    /** In an active-active run: sends the results to the consumer; null otherwise. */
    private final ResultForwarder forwarder;

    /**
     * @param cluster       this member's part of a job every member of it runs; null: this member alone
     * @param kafkaEndpoint where the load comes from when load.source is kafka; null: the in-process generator
     */
    MemberRun(Scenario scenario, Path dir, PrintStream out, ClusterPart cluster, KafkaLoad.Endpoint kafkaEndpoint) {
        this.scenario = scenario;
        this.dir = dir;
        this.out = out;
        this.cluster = cluster;
        this.kafkaEndpoint = kafkaEndpoint;
        // Connected before the start instant, so the consumer learns it in time to start its logs exactly then.
        this.forwarder = cluster == null || cluster.copy() == null ? null
                : new ResultForwarder(cluster.copy(), cluster.member(), cluster.members(), System.err);
    }

    /** From another thread: the job fails with {@code cause} (another member failed or was lost). */
    void fail(Throwable cause) {
        externalFailure = cause;
        if (cluster != null) {
            cluster.job().fail(cause);
        } else if (job != null) {
            job.fail(cause);
        }
        wake.countDown();
    }

    /** The running job's counters (see {@link Job#metrics()}); empty before it starts. */
    Map<String, Long> metrics() {
        Job running = cluster != null ? cluster.job().current() : job;
        return running == null ? Map.of() : running.metrics();
    }

    ScheduleMonitor monitor() {
        return monitor;
    }

    /** Why the job failed, once {@link #run} has returned 1; null otherwise. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void requestStop() {
        stopRequested = true;
        wake.countDown();
    }

    @Override
    public boolean awaitFinished(long seconds) throws InterruptedException {
        return finished.await(seconds, TimeUnit.SECONDS);
    }

    /**
     * @return 0 when the run completed; 1 when the job failed (cause on stderr); 3 when stopped early
     */
    @Override
    public int run(PrintStream err) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        // A member that joined a running job keeps the job's timeline: what is left of the warm-up, the same end.
        long lateNanos = cluster != null && cluster.joined() ? Math.max(0, ClusterMember.epochNanos() - cluster.startEpochNanos()) : 0;
        long warmupMillis = Math.max(0, Math.round(scenario.warmupSeconds() * 1_000) - lateNanos / 1_000_000);
        try (LatencyLogs logs = LatencyLogs.startUnticked(warmupMillis);
             Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(scenario.threads()));
             PrintWriter throughput = RunSampler.csv(dir, "throughput.csv", "time_s,events,events_per_s");
             PrintWriter cpu = RunSampler.csv(dir, "cpu.csv", "time_s,cpu_seconds")) {
            LatencyLog latency = logs.open(dir.resolve("latency.hlog"));
            Supplier<Dag> dags;
            if (kafkaEndpoint != null) {
                kafka = new KafkaLoad(scenario, kafkaEndpoint, dir, logs.clock());
                load = kafka;
                dags = () -> kafkaDag(latency, logs);
            } else {
                dags = () -> generatorDag(latency, logs);
            }
            t0Nanos = System.nanoTime() - lateNanos;
            CompletableFuture<Void> ended;
            if (cluster != null) {
                cluster.job().start(engine, dags, this::restarted);
                ended = cluster.job().result();
            } else {
                job = engine.newJob(dags.get(), jobConfig(), null);
                ended = job.future();
            }
            if (externalFailure != null) {
                fail(externalFailure);
            }
            ended.whenComplete((ignored, failure) -> wake.countDown());

            RunSampler sampler = new RunSampler(t0Nanos, scenario.warmupSeconds(), scenario.rate(), latency, throughput, cpu, out,
                    load::emitted, processed::sum, load::lagNanos);
            long endNanos = t0Nanos + (long) ((scenario.warmupSeconds() + scenario.durationSeconds()) * NANOS_PER_SECOND);
            sampler.everySecondUntil(endNanos, logs, wake);
            failure = failureOf(ended);
            if (failure == null) {
                failure = externalFailure;
            }
            if (cluster != null) {
                cluster.job().cancel();
                // Null on a member that joined a running job and was not taken in yet.
                job = cluster.job().current();
            } else {
                job.cancel();
            }
            if (job != null) {
                awaitEnd(job);
            }
            if (kafka != null) {
                kafka.close();
            }
            if (forwarder != null) {
                forwarder.close();
            }
            if (failure != null) {
                err.println("member: the job failed: " + failure);
                failure.printStackTrace(err);
                return 1;
            }
            logs.close();
            if (job == null) {
                err.println("member: the run ended before the job took this member in");
                return 3;
            }
            writeMemberJson(logs, sampler, latency, job);
            if (stopRequested) {
                err.println("member: stopped before the end of the run");
                return 3;
            }
            out.println("{\"type\":\"done\"}");
            out.flush();
            return 0;
        } finally {
            finished.countDown();
        }
    }

    /** Alone, snapshots go to this process's heap (on a cluster, {@link ClusterJob} replicates them). */
    private JobConfig jobConfig() {
        if (scenario.guarantee() == ProcessingGuarantee.NONE) {
            return JobConfig.defaults();
        }
        return JobConfig.snapshotting(scenario.guarantee(), Duration.ofMillis(scenario.snapshotIntervalMillis()), snapshotStore);
    }

    /** This member's snapshot store: on a cluster the replicated one, which reads back what this member wrote or gathered to restore. */
    private SnapshotStore snapshots() {
        return cluster != null ? cluster.job().snapshots().store() : snapshotStore;
    }

    private Pipeline newPipeline() {
        return Pipeline.create().localPreAggregation(localPreAggregation());
    }

    /** The query on the generator, as a new DAG: for the first execution and for each restart. */
    private Dag generatorDag(LatencyLog latency, LatencyLogs logs) {
        Pipeline pipeline = newPipeline();
        NexmarkQuery<?> query = Queries.create(scenario.query(), pipeline, scenario.parameters());
        if (query instanceof PerEventQuery<?> perEvent) {
            attachPerEvent(pipeline, perEvent, latency, logs);
        } else {
            attachWindowed(pipeline, query, windows(latency, logs));
        }
        return pipeline.toDag();
    }

    /** The query on the Kafka topic, as a new DAG: for the first execution and for each restart. */
    private Dag kafkaDag(LatencyLog latency, LatencyLogs logs) {
        Pipeline pipeline = newPipeline();
        kafka.attach(pipeline, latency, () -> windows(latency, logs), this::countProcessed);
        return pipeline.toDag();
    }

    /** The run's window recorder, made with the first windowed DAG: every execution records into it. */
    private WindowLatencyRecorder windows(LatencyLog latency, LatencyLogs logs) {
        if (windows == null) {
            windows = new WindowLatencyRecorder(latency, logs.open(dir.resolve("completion.hlog")), logs.clock());
        }
        return windows;
    }

    /** On the recovery thread: this member runs the job again after a restart. */
    private void restarted(ClusterJob.Restart restart) {
        ObjectNode r = new ObjectMapper().createObjectNode();
        r.put("type", "recovered");
        r.put("elapsed_s", Math.round((System.nanoTime() - t0Nanos) / 1e6) / 1e3);
        r.put("attempt", restart.attempt());
        r.put("snapshot", restart.snapshotId());
        r.set("members", new ObjectMapper().valueToTree(restart.members()));
        r.put("state_bytes", restart.stateBytes());
        r.put("restart_ms", Math.round(restart.restartNanos() / 1e3) / 1e3);
        synchronized (recoveries) {
            recoveries.add(r);
        }
        out.println(r);
        out.flush();
    }

    private void attachPerEvent(Pipeline pipeline, PerEventQuery<?> query, LatencyLog latency, LatencyLogs logs) {
        GeneratorConfig config = generatorConfig();
        StreamStage<Scheduled<Event>> events = pipeline.readFrom(Sources.generator(scenario.rate(), Long.MAX_VALUE, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (sequence, scheduledNanos) -> new Scheduled<Event>(generator.event(sequence, millis(scheduledNanos)), scheduledNanos);
        }, monitor, this::start)).withoutTimestamps();
        StreamStage<?> results = attachScheduled(query, events.filter(this::countProcessed));
        results.writeTo(Sinks.fromProcessor("latency", () -> new PerEventLatencySinkP(latency, logs.clock())));
        forwardResults(results);
    }

    static <R> StreamStage<Scheduled<R>> attachScheduled(PerEventQuery<R> query, StreamStage<Scheduled<Event>> events) {
        return query.attach(events, Scheduled::item, (event, result) -> new Scheduled<>(result, event.scheduledEpochNanos()));
    }

    private void attachWindowed(Pipeline pipeline, NexmarkQuery<?> query, WindowLatencyRecorder windows) {
        GeneratorConfig config = generatorConfig();
        StreamStage<Event> events = pipeline.readFrom(Sources.generator(scenario.rate(), Long.MAX_VALUE, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (sequence, scheduledNanos) -> generator.event(sequence, millis(scheduledNanos));
        }, monitor, this::start)).withTimestamps(Event::dateTime, 0);
        StreamStage<?> results = query.attach(events.filter(this::countProcessed));
        results.writeTo(windowLatencySink(windows, scenario.threads()));
        forwardResults(results);
    }

    /** Active-active: the results also go to the consumer, through a second sink beside the latency sink. */
    private void forwardResults(StreamStage<?> results) {
        if (forwarder != null) {
            WindowLatencySinkP.SinkWatermarks watermarks = new WindowLatencySinkP.SinkWatermarks(scenario.threads());
            results.writeTo(Sinks.fromProcessor("forward-results", () -> new ForwardResultSinkP(forwarder, watermarks)));
        }
    }

    /** The sink that records window latency, one instance per worker thread. */
    static <R> Sink<R> windowLatencySink(WindowLatencyRecorder windows, int threads) {
        WindowLatencySinkP.SinkWatermarks watermarks = new WindowLatencySinkP.SinkWatermarks(threads);
        return Sinks.fromProcessor("window-latency", () -> new WindowLatencySinkP(windows, watermarks));
    }

    /** -Dfournines.localPreAggregation=false sends raw events across members: to measure what the local stage saves. */
    private static boolean localPreAggregation() {
        return Boolean.parseBoolean(System.getProperty("fournines.localPreAggregation", "true"));
    }

    /** The generator's time origin: a cluster's members share one, so they follow one schedule. */
    private GeneratorSourceP.SharedStart start() {
        return cluster == null ? new GeneratorSourceP.SharedStart() : GeneratorSourceP.SharedStart.at(cluster.startEpochNanos());
    }

    /** A filter that keeps everything: it fuses into the query's first stage and counts what reaches it. */
    private boolean countProcessed(Object event) {
        processed.increment();
        return true;
    }

    /** The generator's rate only shapes auction lengths; the source paces emission itself. */
    private GeneratorConfig generatorConfig() {
        return GeneratorConfig.defaults(SEED).withRate(Math.max(1, Math.round(scenario.rate()))).withKeys(scenario.keys());
    }

    /** An event's dateTime: its scheduled time, floored to the millisecond. */
    private static long millis(long epochNanos) {
        return Math.floorDiv(epochNanos, 1_000_000L);
    }

    private static Throwable failureOf(CompletableFuture<Void> ended) throws InterruptedException {
        if (!ended.isDone()) {
            return null;
        }
        try {
            ended.get();
            return new IllegalStateException("the job ended by itself, but a streaming job never should");
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void awaitEnd(Job job) throws InterruptedException {
        try {
            job.future().get(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (CancellationException | ExecutionException | TimeoutException e) {
            // Cancelled as asked, failed (already reported) or stuck: the engine's close stops its threads.
        }
    }

    static long sumOf(Map<String, Long> metrics, String suffix) {
        return metrics.entrySet().stream().filter(e -> e.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }

    private void writeMemberJson(LatencyLogs logs, RunSampler sampler, LatencyLog latency, Job job) throws IOException {
        Map<String, Long> jobMetrics = job.metrics();
        ObjectMapper json = new ObjectMapper();
        // Events behind the watermark, dropped by a window's first stage; and partial aggregates
        // dropped by its second stage because their window had already been emitted.
        ObjectNode m = MemberJson.contractFields(json, logs.startMicros(), load.emitted(), processed.sum(),
                sumOf(jobMetrics, ".lateItems"), sampler.achievedRate());
        m.put("late_window_partials", sumOf(jobMetrics, ".lateFrames"));
        m.put("query", scenario.query());
        if (cluster != null) {
            m.put("member", cluster.member());
            m.put("members", cluster.members());
            synchronized (recoveries) {
                m.set("recoveries", json.valueToTree(recoveries));
            }
            m.put("network_bytes_sent", sumOf(jobMetrics, ".sentBytes"));
            m.put("network_items_sent", sumOf(jobMetrics, ".sentItems"));
            m.put("network_credit_stalls", sumOf(jobMetrics, ".creditStalls"));
            m.put("local_pre_aggregation", localPreAggregation());
        }
        m.put("threads", scenario.threads());
        m.put("throughput_counts", "events reaching the query's first stage");
        m.put("latency_values_clamped", latency.clampedValues());
        if (windows != null) {
            m.put("window_results_after_completion", windows.lateResults());
        }
        m.put("guarantee", scenario.guarantee().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        if (scenario.guarantee() != ProcessingGuarantee.NONE) {
            m.put("snapshot_interval_ms", scenario.snapshotIntervalMillis());
            m.put("snapshots_committed", cluster != null ? cluster.job().committedSnapshotCount() : job.committedSnapshotCount());
            m.put("last_snapshot_ms", job.lastSnapshotDurationNanos() / 1e6);
            m.put("last_snapshot_bytes", snapshots().sizeInBytes(job.lastCommittedSnapshot()));
        }
        if (kafka != null) {
            kafka.describe(m, jobMetrics, this::snapshots, job.lastCommittedSnapshot());
        }
        Files.writeString(dir.resolve("member.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n");
    }
}
