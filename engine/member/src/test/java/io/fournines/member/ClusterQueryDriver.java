package io.fournines.member;

import io.fournines.cluster.Cluster;
import io.fournines.cluster.ClusterConfig;
import io.fournines.cluster.ClusterSecret;
import io.fournines.cluster.ClusterSnapshots;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.Queries;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A member process for the cluster tests: joins a real cluster, runs a NEXMark query over a
 * bounded, deterministic event sequence (each member generates its slice), and writes the results
 * its sinks received, one {@code toString()} a line, plus the job's metrics. A sink delay makes it
 *
 * a slow member. With a guarantee, the cluster takes snapshots every {@link #SNAPSHOT_INTERVAL},
 * replicated to one backup.
 *
 * <p>Arguments: INDEX HOST:PORT,... SECRET_FILE QUERY EVENTS OUT_DIR [SINK_DELAY_MICROS [GUARANTEE]]
 */
public final class ClusterQueryDriver {

    static final int THREADS = 2;
    static final Duration SNAPSHOT_INTERVAL = Duration.ofMillis(40);
    static final QueryParameters PARAMETERS = QueryParameters.defaults().withWindow(2_000, 500);

    public static void main(String[] args) throws Exception {
        int index = Integer.parseInt(args[0]);
        List<InetSocketAddress> members = Arrays.stream(args[1].split(",")).map(ClusterConfig::address).toList();
        ClusterSecret secret = ClusterSecret.load(Path.of(args[2]));
        String query = args[3];
        long events = Long.parseLong(args[4]);
        Path out = Path.of(args[5]);
        long sinkDelayMicros = args.length > 6 ? Long.parseLong(args[6]) : 0;
        ProcessingGuarantee guarantee = args.length > 7 ? ProcessingGuarantee.valueOf(args[7]) : ProcessingGuarantee.NONE;
        Job[] job = new Job[1];
        ClusterSnapshots[] snapshots = new ClusterSnapshots[1];
        // Snapshot messages that came before this member set its snapshots up (a faster coordinator), replayed in order.
        List<Runnable> early = new ArrayList<>();
        Cluster.Listener listener = new Cluster.Listener() {
            @Override
            public void onControl(int fromMember, int kind, long jobId, String text) {
                if (ClusterSnapshots.handles(kind)) {
                    synchronized (early) {
                        if (snapshots[0] == null) {
                            early.add(() -> snapshots[0].onControl(fromMember, kind, text));
                            return;
                        }
                    }
                    snapshots[0].onControl(fromMember, kind, text);
                }
            }

            @Override
            public void onMemberLost(int member, String cause) {
                synchronized (job) {
                    if (job[0] != null) {
                        job[0].fail(new IllegalStateException("lost " + cause));
                    }
                }
            }
        };
        ClusterConfig config = new ClusterConfig(members, index, secret, 100, 2_000, 30_000);
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        int exit = 0;
        try (Cluster cluster = Cluster.join(config, listener, System.err);
             Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(THREADS))) {
            ScheduleMonitor monitor = new ScheduleMonitor();
            Pipeline p = pipeline(query, events, results, sinkDelayMicros, monitor);
            long[] maxLagNanos = new long[1];
            Thread lagSampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    maxLagNanos[0] = Math.max(maxLagNanos[0], monitor.lagNanos());
                    LockSupport.parkNanos(5_000_000);
                }
            });
            lagSampler.setDaemon(true);
            lagSampler.start();
            JobConfig jobConfig = JobConfig.defaults();
            if (guarantee != ProcessingGuarantee.NONE) {
                ClusterSnapshots created = new ClusterSnapshots(cluster, 1, 1, SNAPSHOT_INTERVAL);
                jobConfig = JobConfig.snapshotting(guarantee, SNAPSHOT_INTERVAL, created.store());
                synchronized (early) {
                    snapshots[0] = created;
                    early.forEach(Runnable::run);
                }
            }
            synchronized (job) {
                job[0] = engine.newJob(p.toDag(), jobConfig, cluster.jobNetwork(1));
                if (snapshots[0] != null) {
                    snapshots[0].attach(job[0]);
                }
            }
            try {
                job[0].join();
            } catch (RuntimeException e) {
                System.err.println("job failed: " + e.getMessage());
                exit = 1;
            }
            lagSampler.interrupt();
            Files.writeString(out.resolve("metrics-" + index + ".txt"), job[0].metrics().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n")) + "\nsource.maxLagNanos=" + maxLagNanos[0]
                    + "\njob.snapshotsCommitted=" + job[0].committedSnapshotCount() + "\n");
            Files.write(out.resolve("results-" + index + ".txt"), results.stream().map(Object::toString).sorted().toList());
            Files.writeString(out.resolve("done-" + index), "");
            // Stay connected until every member is done, so no one sees this one leave as a failure.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (exit == 0 && System.nanoTime() < deadline && !allDone(out, members.size())) {
                Thread.sleep(50);
            }
        }
        System.exit(exit);
    }

    private static boolean allDone(Path out, int members) {
        for (int m = 0; m < members; m++) {
            if (!Files.exists(out.resolve("done-" + m))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The query over events 0..n-1 of the generator's default sequence, event time from the
     * generator, not the schedule; or "flood": n numbers keyed by n % 1000 through a keyed stateful
     * map, so two thirds of all items cross members (for the flow-control test).
     */
    static Pipeline pipeline(String query, long events, List<Object> results, long sinkDelayMicros, ScheduleMonitor monitor) {
        Pipeline p = Pipeline.create().localPreAggregation(Boolean.parseBoolean(System.getProperty("fournines.localPreAggregation", "true")));
        if (query.equals("flood")) {
            StreamStage<String> counted = p.readFrom(Sources.<Long>generator(500_000, events, (seq, scheduledNanos) -> seq, monitor)).withoutTimestamps()
                    .groupingKey(n -> n % 1_000)
                    .mapStateful(() -> new long[1], (count, key, n) -> key + ":" + ++count[0]);
            counted.writeTo(sinkDelayMicros == 0 ? Sinks.list(results) : Sinks.fromProcessor("slow-sink", () -> new SlowSinkP(results, sinkDelayMicros)));
            return p;
        }
        GeneratorConfig config = GeneratorConfig.defaults(1).withKeys(1_000);
        StreamStage<Event> stage = p.readFrom(Sources.generator(500_000, events, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (seq, scheduledNanos) -> generator.event(seq);
        }, monitor)).withTimestamps(Event::dateTime, 0);
        StreamStage<?> resultStage = Queries.create(query, p, PARAMETERS).attach(stage);
        if (sinkDelayMicros == 0) {
            resultStage.writeTo(Sinks.list(results));
        } else {
            resultStage.writeTo(Sinks.fromProcessor("slow-sink", () -> new SlowSinkP(results, sinkDelayMicros)));
        }
        return p;
    }

    /** Runs the query on one in-process member: the reference the cluster must match. */
    static List<String> runAlone(String query, long events) {
        List<Object> results = Collections.synchronizedList(new ArrayList<>());
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(THREADS))) {
            engine.newJob(pipeline(query, events, results, 0, new ScheduleMonitor())).join();
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
