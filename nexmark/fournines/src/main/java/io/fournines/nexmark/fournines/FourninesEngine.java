package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.engine.cluster.ClusterJob;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.execution.BatchScheduler;
import io.fournines.engine.execution.CommittedSnapshot;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.execution.Idling;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.snapshot.SnapshotStore;
import io.fournines.nexmark.driver.CsvFile;
import io.fournines.nexmark.driver.EngineAdapter;
import io.fournines.nexmark.driver.Execution;
import io.fournines.nexmark.driver.JobGraph;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.SnapshotTimes;
import io.fournines.nexmark.driver.VertexCounters;
import io.fournines.nexmark.queries.ResultLines;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The reference engine behind the driver, like the peers: an in-process {@link Engine} with
 * {@code cluster.threads} cooperative workers, fed by its own paced generator (one slice per
 * worker) or by the Kafka topic the load generator fills. Alone it runs the job itself, snapshots in
 * this heap; on a cluster it runs this member's part of a {@link ClusterJob}, which restarts it
 * after a lost member from the replicated snapshots, announcing each restart on the progress channel.
 */
final class FourninesEngine implements EngineAdapter {

    static final String NAME = "fournines";
    private static final long SHUTDOWN_WAIT_SECONDS = 5;
    /** Micro-batch and group execution: each stage of each finished batch, beside the hlogs, written by the member that scheduled them. */
    static final String BATCHES_FILE = "batches.csv";

    /** Null when this member runs the job alone. */
    private final ClusterPart cluster;
    /** Active-active: sends the results to the consumer; null otherwise. */
    private final ResultForwarder forwarder;
    private volatile Running running;
    /** A failure from elsewhere (another member failed, or this one was dropped), which may come before the job starts here. */
    private volatile Throwable externalFailure;

    /** @param cluster this member's part of a job every member of it runs; null: this member alone */
    FourninesEngine(ClusterPart cluster, PrintStream err) {
        this.cluster = cluster;
        // Connected now, before the start instant, so the consumer learns it in time to start its logs exactly then.
        this.forwarder = cluster == null || cluster.copy() == null ? null
                : new ResultForwarder(cluster.copy(), cluster.member(), cluster.members(), err);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** A member alone prepares here, before the driver's clock starts; a cluster's part before its start instant. */
    @Override
    public EngineAdapter.Running start(Scenario scenario, Path dir) throws Exception {
        if (cluster == null) {
            prepare(scenario);
        }
        running = new Running(scenario, dir);
        return running;
    }

    /** What must be ready before the job starts: the Kafka client loaded, the topic checked and the broker ready ({@link KafkaLoad#prepare}). */
    static void prepare(Scenario scenario) {
        if (scenario.source().equals(Scenario.KAFKA)) {
            KafkaLoad.prepare(scenario);
        }
    }

    /** The job's counters (see {@link Job#metrics()}), over all its executions; empty before it starts. */
    Map<String, Long> metrics() {
        Running r = running;
        return r == null ? Map.of() : r.metrics();
    }

    /** How far the generator is behind its schedule; 0 before the run starts. */
    long scheduleLagNanos() {
        Running r = running;
        return r == null ? 0 : r.scheduleLagNanos();
    }

    /** From another thread: the job fails with {@code cause} (another member failed or was lost). */
    void fail(Throwable cause) {
        externalFailure = cause;
        Running r = running;
        if (r != null) {
            r.fail(cause);
        }
    }

    /** Why the job failed, once it has; null otherwise. */
    Throwable failure() {
        Running r = running;
        return r == null ? null : r.failure;
    }

    static long sumOf(Map<String, Long> metrics, String suffix) {
        return metrics.entrySet().stream().filter(e -> e.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }

    /** Now, as nanoseconds since the epoch: the clock a cluster's start instant is given on. */
    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private final class Running implements EngineAdapter.Running {
        private final Scenario scenario;
        private final Path dir;
        private final Engine engine;
        private final InMemorySnapshotStore snapshotStore = new InMemorySnapshotStore();
        private final KafkaLoad kafka;
        /** Where every result is recorded ({@link CheckedRun}); null: nowhere. */
        private final Sink<Object> record;
        /** Where this member fails on purpose ({@link CheckedRun}): one for all instances and executions. */
        private final ChaosPoint chaos;
        /** The restarts after lost members, as member.json lists them. */
        private final List<ObjectNode> recoveries = new ArrayList<>();
        /** The jobs submitted, in order: one, or on a member alone the scenario's {@code jobs}, sharing the engine's workers. */
        private final List<QueryJob> jobs = new CopyOnWriteArrayList<>();
        /** The first failure of any job. */
        private volatile Throwable failure;
        /** The graph of the job's latest DAG (a cluster's restart builds it again); null before the first. */
        private volatile JobGraph graph;
        private long t0Nanos;
        private boolean closed;

        Running(Scenario scenario, Path dir) throws Exception {
            this.scenario = scenario;
            this.dir = dir;
            this.kafka = scenario.source().equals(Scenario.KAFKA) ? new KafkaLoad(scenario, dir) : null;
            // Armed until the job first restarts, so a member elected after a frozen coordinator does not freeze in turn.
            this.chaos = cluster == null ? ChaosPoint.NEVER
                    : cluster.checked().chaosPoint(cluster.member(), dir, cluster.job()::coordinates, () -> cluster.job().attempt() == 0);
            this.record = cluster == null || !cluster.checked().recordResults() ? null : recording(scenario, dir);
            this.engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(scenario.threads())
                    .withIdling(Idling.fromSpelled(scenario.idle())));
        }

        @Override
        public long joinedLateNanos() {
            return cluster != null && cluster.joined() ? Math.max(0, epochNanos() - cluster.startEpochNanos()) : 0;
        }

        /** Once, or on a member alone once for each of the scenario's jobs ({@link Scenario#job}). */
        @Override
        public CompletableFuture<?> submit(Scenario job, RunContext run) {
            if (!jobs.isEmpty() && (cluster != null || kafka != null)) {
                throw new IllegalStateException("a cluster's member or a Kafka-fed one runs one job; a second was submitted");
            }
            if (jobs.isEmpty()) {
                this.t0Nanos = System.nanoTime() - joinedLateNanos();
            }
            QueryJob submitted = new QueryJob(job, run);
            jobs.add(submitted);
            return submitted.submit();
        }

        /** The recording sink of a checked run, in {@code dir/recorded}, transactional under exactly-once. */
        private Sink<Object> recording(Scenario scenario, Path dir) {
            boolean transactional = scenario.guarantee() == Scenario.Guarantee.EXACTLY_ONCE;
            Path recorded = dir.resolve("recorded");
            return Sinks.fromProcessor("record-results", () -> new RecordingSinkP(recorded, transactional, ResultLines::of, chaos));
        }

        /**
         * Micro-batch and group execution, on the member that schedules: each stage of each batch the
         * job finished, as {@code batches.csv} (epoch µs the scheduler launched it, the first tasklet
         * on any member started it, the last finished it; the size of the group it was launched in).
         */
        private void writeBatchTimes(Job job) throws IOException {
            try (CsvFile csv = CsvFile.create(dir, BATCHES_FILE, "batch,stage,launched_us,started_us,finished_us,done_us,group_size")) {
                List<BatchScheduler.StageTimes> rows = new ArrayList<>();
                job.drainBatchTimes(rows::add);
                for (BatchScheduler.StageTimes t : rows) {
                    csv.row("%d,%d,%d,%d,%d,%d,%d", t.batch(), t.stage(), t.launchedMicros(), t.startedMicros(), t.finishedMicros(),
                            t.doneMicros(), t.groupSize());
                }
            }
        }

        /** Every job fails with {@code cause}; before any is submitted, {@link #submit} fails it with {@link #externalFailure}. */
        void fail(Throwable cause) {
            failed(cause);
            for (QueryJob job : jobs) {
                job.fail(cause);
            }
        }

        private void failed(Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
        }

        /**
         * The engine's job of a cluster's member (set at close to the cluster's last execution), or of a
         * member alone (the first of several); null before it started here.
         */
        private Job firstJob() {
            return jobs.isEmpty() ? null : jobs.get(0).job;
        }

        /** On a cluster, summed over the restarts' executions: an earlier one's late items still count; several jobs summed. */
        Map<String, Long> metrics() {
            if (cluster != null) {
                return cluster.job().metrics();
            }
            if (jobs.size() == 1) {
                return jobs.get(0).metrics();
            }
            Map<String, Long> sums = new LinkedHashMap<>();
            for (QueryJob job : jobs) {
                job.metrics().forEach((name, value) -> sums.merge(name, value, Long::sum));
            }
            return sums;
        }

        @Override
        public JobGraph graph() {
            return graph;
        }

        @Override
        public Map<String, VertexCounters> vertexCounters() {
            JobGraph g = graph;
            return g == null ? Map.of() : DagGraphs.counters(g, metrics());
        }

        @Override
        public void drainCommittedSnapshots(Consumer<SnapshotTimes> to) {
            Consumer<CommittedSnapshot> each = c -> to.accept(new SnapshotTimes(c.id(), c.startedNanos(), c.savedNanos(), c.committedNanos(), c.bytes()));
            if (cluster != null) {
                cluster.job().drainCommittedSnapshots(each);
            } else {
                for (QueryJob job : jobs) {
                    if (job.job != null) {
                        job.job.drainCommittedSnapshots(each);
                    }
                }
            }
        }

        /** How far the furthest-behind job's generator is behind its schedule. */
        long scheduleLagNanos() {
            return jobs.stream().mapToLong(job -> job.monitor.lagNanos()).max().orElse(0);
        }

        /** On the recovery thread: this member runs the job again after a restart. */
        private void restarted(ClusterJob.Restart restart) {
            ObjectMapper json = new ObjectMapper();
            ObjectNode r = json.createObjectNode();
            r.put("type", "recovered");
            r.put("elapsed_s", Math.round((System.nanoTime() - t0Nanos) / 1e6) / 1e3);
            r.put("attempt", restart.attempt());
            r.put("snapshot", restart.snapshotId());
            r.set("members", json.valueToTree(restart.members()));
            r.put("state_bytes", restart.stateBytes());
            r.put("restart_ms", Math.round(restart.restartNanos() / 1e3) / 1e3);
            synchronized (recoveries) {
                recoveries.add(r);
            }
            jobs.get(0).run.announce(r.toString());
        }

        @Override
        public boolean tookPart() {
            return firstJob() != null;
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (cluster != null) {
                    cluster.job().cancel();
                    // Null on a member that joined a running job and was not taken in yet.
                    for (QueryJob job : jobs) {
                        job.job = cluster.job().current();
                    }
                } else {
                    for (QueryJob job : jobs) {
                        job.cancel();
                    }
                }
                for (QueryJob job : jobs) {
                    job.awaitEnd();
                }
                if (kafka != null) {
                    kafka.close();
                }
                if (forwarder != null) {
                    forwarder.close();
                }
            } finally {
                engine.close();
            }
        }

        @Override
        public void describe(ObjectNode m) {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("engine_version", "fournines reference engine (this checkout)");
            settings.put("cooperative_threads", scenario.threads());
            settings.put("idle_strategy", scenario.idle());
            settings.put("api", "Pipeline API");
            settings.put("processing_guarantee", scenario.guarantee().spelled());
            if (InjectedWork.NANOS > 0) {
                settings.put("injected_nanos_per_event", InjectedWork.NANOS);
            }
            m.putPOJO("engine_settings", settings);
            Map<String, Long> jobMetrics = metrics();
            // Partial aggregates dropped by a window's second stage because their window had already been emitted.
            m.put("late_window_partials", sumOf(jobMetrics, ".lateFrames"));
            if (cluster != null) {
                m.put("member", cluster.member());
                m.put("members", cluster.members());
                synchronized (recoveries) {
                    m.set("recoveries", new ObjectMapper().valueToTree(recoveries));
                }
                m.put("network_bytes_sent", sumOf(jobMetrics, ".sentBytes"));
                m.put("network_items_sent", sumOf(jobMetrics, ".sentItems"));
                m.put("network_credit_stalls", sumOf(jobMetrics, ".creditStalls"));
                m.put("local_pre_aggregation", FourninesPipelines.localPreAggregation());
            }
            m.put("guarantee", scenario.guarantee().spelled());
            // Snapshots and Kafka: one job (several are refused with either, Scenario#jobs).
            Job job = firstJob();
            if (scenario.guarantee() != Scenario.Guarantee.NONE) {
                m.put("snapshot_interval_ms", scenario.snapshotIntervalMillis());
                m.put("snapshots_committed", cluster != null ? cluster.job().committedSnapshotCount() : job.committedSnapshotCount());
                m.put("snapshots_aborted", cluster != null ? cluster.job().snapshots().abortedCount() : 0);
                m.put("snapshot_commit_age_s", (cluster != null ? cluster.job().snapshots().nanosSinceLastCommit() : job.nanosSinceLastCommit()) / 1e9);
                m.put("last_snapshot_ms", job.lastSnapshotDurationNanos() / 1e6);
                m.put("last_snapshot_bytes", snapshots().sizeInBytes(job.lastCommittedSnapshot()));
            }
            if (kafka != null) {
                kafka.describe(m, jobMetrics, this::snapshots, job.lastCommittedSnapshot());
            }
        }

        /** This member's snapshot store: on a cluster the replicated one, which reads back what this member wrote or gathered to restore. */
        private SnapshotStore snapshots() {
            return cluster != null ? cluster.job().snapshots().store() : snapshotStore;
        }

        /** One job of the query in this member's engine: its own run (latency, counts) and its own generator's schedule. */
        private final class QueryJob {
            private final Scenario scenario;
            private final RunContext run;
            private final ScheduleMonitor monitor = new ScheduleMonitor();
            /** Completes exceptionally when the job fails, here or (on a cluster) elsewhere. */
            private final CompletableFuture<Void> ended = new CompletableFuture<>();
            private volatile Job job;

            QueryJob(Scenario scenario, RunContext run) {
                this.scenario = scenario;
                this.run = run;
            }

            CompletableFuture<Void> submit() {
                if (kafka != null) {
                    run.measureLoadWith(kafka::consumed, kafka::lagNanos);
                } else {
                    run.measureLoadWith(monitor::emitted, monitor::lagNanos);
                }
                Supplier<Dag> dags = () -> {
                    Dag dag = pipeline().toDag();
                    graph = DagGraphs.of(dag, scenario.threads());
                    return dag;
                };
                CompletableFuture<Void> result;
                if (cluster != null) {
                    cluster.job().start(engine, dags, Running.this::restarted);
                    result = cluster.job().result();
                } else {
                    job = engine.newJob(dags.get(), jobConfig(), null);
                    result = job.future();
                }
                result.whenComplete((ignored, e) -> {
                    Throwable cause = e == null ? null : unwrap(e);
                    if (cause == null) {
                        ended.complete(null);
                    } else if (cause instanceof CancellationException) {
                        ended.cancel(false);
                    } else {
                        failed(cause);
                        ended.completeExceptionally(cause);
                    }
                });
                if (externalFailure != null) {
                    Running.this.fail(externalFailure);
                }
                return ended;
            }

            private Pipeline pipeline() {
                if (kafka != null) {
                    Pipeline pipeline = Pipeline.create().localPreAggregation(FourninesPipelines.localPreAggregation());
                    kafka.attach(pipeline, run, this::countProcessed, record);
                    return pipeline;
                }
                return FourninesPipelines.generatorFed(scenario.query(), scenario.parameters(), scenario.generator(), scenario.threads(), run,
                        monitor, this::start, this::countProcessed, forwarder, record);
            }

            /** A filter that keeps everything: it fuses into the query's first stage and counts what reaches it. */
            private boolean countProcessed(Object event) {
                run.processed();
                InjectedWork.perEvent();
                chaos.event();
                return true;
            }

            private GeneratorSourceP.SharedStart start() {
                return cluster == null ? new GeneratorSourceP.SharedStart() : GeneratorSourceP.SharedStart.at(cluster.startEpochNanos());
            }

            /** Alone, snapshots go to this process's heap (on a cluster, {@link ClusterJob} replicates them). */
            private JobConfig jobConfig() {
                JobConfig config = scenario.guarantee() == Scenario.Guarantee.NONE ? JobConfig.defaults()
                        : JobConfig.snapshotting(guarantee(scenario), Duration.ofMillis(scenario.snapshotIntervalMillis()), snapshotStore);
                return config.executing(executionModel(scenario.execution()));
            }

            void fail(Throwable cause) {
                failed(cause);
                ended.completeExceptionally(cause);
                if (cluster != null) {
                    cluster.job().fail(cause);
                } else if (job != null) {
                    job.fail(cause);
                }
            }

            Map<String, Long> metrics() {
                if (cluster != null) {
                    return cluster.job().metrics();
                }
                return job == null ? Map.of() : job.metrics();
            }

            void cancel() {
                if (job != null) {
                    job.cancel();
                }
            }

            /** Waits for the cancelled job; then its batch times (if it scheduled batches) and its late events, now final. */
            void awaitEnd() throws Exception {
                if (job == null) {
                    return;
                }
                FourninesEngine.awaitEnd(job);
                if (job.schedulesBatches()) {
                    writeBatchTimes(job);
                }
                // Events behind the watermark, dropped by a window's first stage.
                run.lateEvents(sumOf(metrics(), ".lateItems"));
            }
        }
    }

    static ExecutionModel executionModel(Execution execution) {
        return switch (execution.model()) {
            case Execution.MICRO_BATCH -> ExecutionModel.microBatch(Duration.ofMillis(execution.batchMs()));
            case Execution.GROUP -> execution.latencyTargetMs() > 0
                    ? ExecutionModel.tuned(Duration.ofMillis(execution.batchMs()), Duration.ofMillis(execution.latencyTargetMs()))
                    : ExecutionModel.group(Duration.ofMillis(execution.batchMs()), execution.groupSize());
            default -> ExecutionModel.CONTINUOUS;
        };
    }

    static ProcessingGuarantee guarantee(Scenario scenario) {
        return switch (scenario.guarantee()) {
            case NONE -> ProcessingGuarantee.NONE;
            case AT_LEAST_ONCE -> ProcessingGuarantee.AT_LEAST_ONCE;
            case EXACTLY_ONCE -> ProcessingGuarantee.EXACTLY_ONCE;
        };
    }

    private static Throwable unwrap(Throwable e) {
        return (e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null ? e.getCause() : e;
    }

    private static void awaitEnd(Job job) throws InterruptedException {
        try {
            job.future().get(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (CancellationException | ExecutionException | TimeoutException e) {
            // Cancelled as asked, failed (already reported) or stuck: the engine's close stops its threads.
        }
    }
}
