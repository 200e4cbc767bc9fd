package io.fournines.nexmark.fournines;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.ClusterJob;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.ControlKind;
import io.fournines.engine.cluster.TermStore;
import io.fournines.engine.cluster.View;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.job.Engine;
import io.fournines.engine.kafka.DeadLetters;
import io.fournines.engine.kafka.KafkaSourceOptions;
import io.fournines.engine.kafka.KafkaSources;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamSource;
import io.fournines.engine.pipeline.StreamSourceStage;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.queries.Queries;
import io.fournines.nexmark.query.QueryParameters;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A member process for the cluster tests: joins a real cluster, runs a NEXMark query over a
 * bounded, deterministic event sequence (each member generates its slice), and writes the results
 * its sinks received, one {@code toString()} a line, plus the job's metrics. A sink delay makes it
 * a slow member.
 *
 * <p>With a guarantee, the cluster takes snapshots every {@link #SNAPSHOT_INTERVAL}, replicated to
 * one backup; the results go through a transactional {@link RecordingSinkP} into OUT_DIR/published,
 * which outlives a killed member, and a lost member restarts the job on the survivors. FREEZE_AT
 * makes this member stop dead at one moment ({@link #chaosPoint}) for the test to kill it there,
 * its sinks held open until some member froze ({@link HeldOpenSinkP});
 * JOINING=true makes it a lost member started again, taken into the running job. The property
 * {@code fournines.test.execution} runs the job in batches: {@code micro-batch:BATCH_MS} or
 * {@code group:BATCH_MS:GROUP_SIZE}.
 *
 * <p>Arguments: INDEX HOST:PORT,... SECRET_FILE QUERY EVENTS OUT_DIR [SINK_DELAY_MICROS [GUARANTEE [RATE [FREEZE_AT [JOINING]]]]]
 */
public final class ClusterQueryDriver {

    static final int THREADS = 2;
    static final Duration SNAPSHOT_INTERVAL = Duration.ofMillis(40);
    static final QueryParameters PARAMETERS = QueryParameters.defaults().withWindow(2_000, 500);
    static final double DEFAULT_RATE = 500_000;
    static final String KAFKA_TOPIC = "numbers";
    private static final long JOB_ID = 1;
    static final Duration SCALE_OUT_DELAY = Duration.ofMillis(500);

    public static void main(String[] args) throws Exception {
        int index = Integer.parseInt(args[0]);
        List<InetSocketAddress> members = Arrays.stream(args[1].split(",")).map(ClusterConfig::address).toList();
        ClusterSecret secret = ClusterSecret.load(Path.of(args[2]));
        String query = args[3];
        long events = Long.parseLong(args[4]);
        Path out = Path.of(args[5]);
        long sinkDelayMicros = args.length > 6 ? Long.parseLong(args[6]) : 0;
        ProcessingGuarantee guarantee = args.length > 7 ? ProcessingGuarantee.valueOf(args[7]) : ProcessingGuarantee.NONE;
        double rate = args.length > 8 ? Double.parseDouble(args[8]) : DEFAULT_RATE;
        Cluster[] joined = new Cluster[1];
        ChaosPoint freeze = chaosPoint(args.length > 9 ? args[9] : "never", out.resolve("frozen-" + index),
                () -> joined[0] != null && joined[0].coordinator() == index && !anyFrozen(out));
        boolean joining = args.length > 10 && Boolean.parseBoolean(args[10]);
        ClusterJob[] job = new ClusterJob[1];
        // Messages that came before this member set its job up (a faster coordinator), replayed in order.
        List<Runnable> early = new ArrayList<>();
        Cluster.Listener listener = new Cluster.Listener() {
            @Override
            public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
                if (kind.forClusterJob()) {
                    synchronized (early) {
                        if (job[0] == null) {
                            early.add(() -> job[0].onControl(fromMember, kind, text));
                            return;
                        }
                    }
                    job[0].onControl(fromMember, kind, text);
                } else if (kind == ControlKind.FAIL) {
                    synchronized (early) {
                        if (job[0] != null) {
                            job[0].fail(new IllegalStateException(text));
                        }
                    }
                }
            }

            @Override
            public void onMemberLost(int member, String cause) {
                synchronized (early) {
                    if (job[0] != null) {
                        job[0].onMemberLost(member, cause);
                    }
                }
            }

            @Override
            public void onViewChanged(View view) {
                synchronized (early) {
                    if (job[0] != null && view != null) {
                        job[0].onView(view, null);
                    }
                }
            }
        };
        ClusterConfig config = new ClusterConfig(members, index, secret, 100, 2_000, 30_000);
        // Behind a fault-injecting proxy, which the member list names: the member listens elsewhere.
        String listen = System.getProperty("fournines.test.listen");
        if (listen != null) {
            config = config.listeningOn(ClusterConfig.address(listen));
        }
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        int exit = 0;
        try (Cluster cluster = Cluster.join(config, TermStore.inFile(out.resolve("view-term-" + index)), listener, System.err);
             Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(THREADS))) {
            joined[0] = cluster;
            ScheduleMonitor monitor = new ScheduleMonitor();
            Path published = out.resolve("published");
            Files.createDirectories(published);
            // A member that is to freeze holds its sinks open until some member froze: the moment comes before the job ends.
            boolean holdOpen = freezes(args.length > 9 ? args[9] : "never");
            Sink<Object> sink = guarantee != ProcessingGuarantee.NONE ? Sinks.fromProcessor("transactional", () -> {
                        RecordingSinkP recording = new RecordingSinkP(published, true, Object::toString, freeze);
                        return holdOpen ? new HeldOpenSinkP(recording, () -> anyFrozen(out)) : recording;
                    })
                    : sinkDelayMicros == 0 ? Sinks.list(results)
                    : Sinks.fromProcessor("slow-sink", () -> new SlowSinkP(results, sinkDelayMicros));
            long[] maxLagNanos = new long[1];
            Thread lagSampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    maxLagNanos[0] = Math.max(maxLagNanos[0], monitor.lagNanos());
                    LockSupport.parkNanos(5_000_000);
                }
            });
            lagSampler.setDaemon(true);
            lagSampler.start();
            // The engine's default (10 s at least) unless the test gives a shorter one.
            String timeoutMs = System.getProperty("fournines.test.snapshotTimeoutMs");
            ExecutionModel execution = execution(System.getProperty("fournines.test.execution", "continuous"));
            ClusterJob created = timeoutMs == null ? new ClusterJob(cluster, JOB_ID, guarantee, SNAPSHOT_INTERVAL, 1, SCALE_OUT_DELAY, execution)
                    : new ClusterJob(cluster, JOB_ID, guarantee, SNAPSHOT_INTERVAL, Duration.ofMillis(Long.parseLong(timeoutMs)), 1, SCALE_OUT_DELAY,
                    execution);
            if (joining) {
                created.joinRunning();
            }
            synchronized (early) {
                job[0] = created;
                early.forEach(Runnable::run);
                created.start(engine, () -> pipeline(query, events, rate, sink, monitor).toDag(),
                        r -> System.err.println("restarted: attempt " + r.attempt() + " from snapshot " + r.snapshotId() + " on members "
                                + Arrays.toString(r.members()) + ", " + r.stateBytes() + " state bytes gathered in " + r.restartNanos() / 1_000_000 + " ms"));
            }
            try {
                created.result().get();
            } catch (ExecutionException e) {
                System.err.println("job failed: " + e.getCause());
                exit = 1;
            }
            lagSampler.interrupt();
            Map<String, Long> metrics = created.current() == null ? Map.of() : created.current().metrics();
            // On the member that scheduled the batches: every stage of every batch it saw done.
            long[] stagesDone = new long[1];
            if (created.current() != null) {
                created.current().drainBatchTimes(t -> stagesDone[0]++);
            }
            Files.writeString(out.resolve("metrics-" + index + ".txt"), metrics.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n")) + "\nsource.maxLagNanos=" + maxLagNanos[0]
                    + "\njob.snapshotsCommitted=" + created.committedSnapshotCount() + "\njob.attempt=" + created.attempt()
                    + "\njob.batchStagesDone=" + stagesDone[0] + "\n");
            Files.write(out.resolve("results-" + index + ".txt"), results.stream().map(Object::toString).sorted().toList());
            Files.writeString(out.resolve("done-" + index), "");
            // Stay connected until every live member is done, so no one sees this one leave as a failure.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (exit == 0 && System.nanoTime() < deadline && !allDone(out, cluster)) {
                Thread.sleep(50);
            }
            created.close();
        }
        System.exit(exit);
    }

    /** {@code continuous}, {@code micro-batch:BATCH_MS} or {@code group:BATCH_MS:GROUP_SIZE}. */
    private static ExecutionModel execution(String spec) {
        String[] f = spec.split(":");
        return switch (f[0]) {
            case "continuous" -> ExecutionModel.CONTINUOUS;
            case "micro-batch" -> ExecutionModel.microBatch(Duration.ofMillis(Long.parseLong(f[1])));
            case "group" -> ExecutionModel.group(Duration.ofMillis(Long.parseLong(f[1])), Integer.parseInt(f[2]));
            default -> throw new IllegalArgumentException("fournines.test.execution: no execution model '" + spec + "'");
        };
    }

    /**
     * FREEZE_AT: {@code never}, or a {@link ChaosPoint} moment ({@code processing:N}, {@code
     * snapshot:N}, {@code committed:N}) where the member freezes; prefixed {@code coordinator/}, it
     * counts only while {@code coordinating} holds (the majority elects the coordinator, so a test
     * that kills it arms every member this way); prefixed {@code fail/}, the member throws there once
     * instead (a processor failure).
     */
    static ChaosPoint chaosPoint(String spec, Path marker, BooleanSupplier coordinating) {
        if (spec.equals("never")) {
            return ChaosPoint.NEVER;
        }
        boolean coordinatorOnly = spec.startsWith("coordinator/");
        boolean fail = spec.startsWith("fail/");
        return ChaosPoint.parse(spec.substring(spec.indexOf('/') + 1), fail, marker, coordinatorOnly ? coordinating : () -> true);
    }

    /** Whether FREEZE_AT makes this member freeze somewhere (not never, not a failure). */
    private static boolean freezes(String spec) {
        return !spec.equals("never") && !spec.startsWith("fail/");
    }

    /** Whether a member froze already: a coordinator freezes once in the cluster, not again in the one elected after it. */
    private static boolean anyFrozen(Path out) {
        try (Stream<Path> files = Files.list(out)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith("frozen-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean allDone(Path out, Cluster cluster) {
        for (int m = 0; m < cluster.size(); m++) {
            if (cluster.lostCause(m) == null && !Files.exists(out.resolve("done-" + m))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The query over events 0..n-1 of the generator's default sequence at {@code rate} events/s,
     * event time from the generator, not the schedule, into {@code sink}; or "flood": n numbers keyed
     * by n % 1000 through a keyed stateful map, so two thirds of all items cross members (for the
     * flow-control test); or "count": n numbers counted by n % 1000 in the query's sliding windows
     * (an aggregate whose at-least-once replays show as higher counts); or "kafka-count": the same
     * count over the numbers in a Kafka topic (a streaming job: it never ends by itself).
     */
    static Pipeline pipeline(String query, long events, double rate, Sink<Object> sink, ScheduleMonitor monitor) {
        Pipeline p = Pipeline.create().localPreAggregation(Boolean.parseBoolean(System.getProperty("fournines.localPreAggregation", "true")));
        if (query.equals("kafka-count")) {
            countNumbers(p.readFrom(kafkaNumbers()).withTimestamps(n -> n / 100, 0)).writeTo(sink);
            return p;
        }
        if (query.equals("flood") || query.equals("count")) {
            StreamSourceStage<Long> numbers = p.readFrom(Sources.<Long>generator(rate, events, (seq, scheduledNanos) -> seq, monitor));
            StreamStage<?> out = query.equals("flood")
                    ? numbers.withoutTimestamps().groupingKey(n -> n % 1_000).mapStateful(() -> new long[1], (count, key, n) -> key + ":" + ++count[0])
                    : countNumbers(numbers.withTimestamps(n -> n / 100, 0));
            out.writeTo(sink);
            return p;
        }
        GeneratorConfig config = GeneratorConfig.defaults(1).withKeys(1_000);
        StreamStage<Event> stage = p.readFrom(Sources.generator(rate, events, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (seq, scheduledNanos) -> generator.event(seq);
        }, monitor)).withTimestamps(Event::dateTime, 0);
        Queries.create(query, p, PARAMETERS).attach(stage).writeTo(sink);
        return p;
    }

    /** Numbers counted by n % 1000 in the query's sliding windows; event time: 100 numbers a millisecond. */
    static StreamStage<KeyedWindowResult<Long, Long>> countNumbers(StreamStage<Long> numbers) {
        return numbers.groupingKey(n -> n % 1_000).window(WindowDefinition.sliding(PARAMETERS.windowMs(), PARAMETERS.slideMs()))
                .aggregate(AggregateOperations.counting());
    }

    /** "kafka-count"'s source: numbers as decimal text in the records of topic {@link #KAFKA_TOPIC} on the broker -Dfournines.test.kafka names. */
    private static StreamSource<Long> kafkaNumbers() {
        String bootstrap = System.getProperty("fournines.test.kafka");
        DeadLetters deadLetters = new DeadLetters() {
            @Override
            public void setAside(ConsumerRecord<byte[], byte[]> record, String reason) {
                System.err.println("malformed record at offset " + record.offset() + " of partition " + record.partition() + ": " + reason);
            }

            @Override
            public void close() {
            }
        };
        return KafkaSources.kafka(Map.of("bootstrap.servers", bootstrap), KAFKA_TOPIC,
                record -> Long.parseLong(new String(record.value(), StandardCharsets.UTF_8)),
                KafkaSourceOptions.defaults(deadLetters));
    }

    /** Runs the query on one in-process member: the reference the cluster must match. */
    static List<String> runAlone(String query, long events) {
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(THREADS))) {
            engine.newJob(pipeline(query, events, DEFAULT_RATE, Sinks.list(results), new ScheduleMonitor())).join();
        }
        return results.stream().map(Object::toString).sorted().toList();
    }

    /**
     * A sink that takes {@code delayMicros} per item, blocking its worker thread (which a
     * cooperative processor must not do): the whole member, receivers included, falls behind.
     */
    private static final class SlowSinkP extends AbstractProcessor {
        private final List<Object> results;
        private final long delayNanos;

        SlowSinkP(List<Object> results, long delayMicros) {
            this.results = results;
            this.delayNanos = TimeUnit.MICROSECONDS.toNanos(delayMicros);
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            LockSupport.parkNanos(delayNanos);
            results.add(item);
            return true;
        }
    }

    static Map<String, Long> readMetrics(Path file) throws java.io.IOException {
        return Files.readAllLines(file).stream().filter(l -> l.contains("="))
                .collect(Collectors.toMap(l -> l.substring(0, l.lastIndexOf('=')), l -> Long.parseLong(l.substring(l.lastIndexOf('=') + 1))));
    }
}
