package io.fournines.member;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.latency.LatencyLog;
import io.fournines.nexmark.latency.LatencyLogs;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.NexmarkQuery;
import io.fournines.nexmark.query.PerEventQuery;
import io.fournines.nexmark.query.Queries;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * One run of the member: the scenario's query on an in-process engine, fed by the open-loop NEXMark
 * generator (one slice per worker thread), for warm-up plus duration. Once a second, on one clock,
 * it writes a latency interval, a throughput row and a CPU row, and prints a progress line.
 */
final class MemberRun {

    /** The generator's seed: fixed, so every run of a scenario sees the same event sequence. */
    private static final long SEED = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SHUTDOWN_WAIT_SECONDS = 5;

    private final Scenario scenario;
    private final Path dir;
    private final PrintStream out;
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
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    MemberRun(Scenario scenario, Path dir, PrintStream out, KafkaLoad.Endpoint kafkaEndpoint) {
        this.scenario = scenario;
        this.dir = dir;
        this.out = out;
        this.kafkaEndpoint = kafkaEndpoint;
    }

    /** From another thread (a signal): stop the load, close the files, and return from {@link #run}. */
    void requestStop() {
        stopRequested = true;
        wake.countDown();
    }

    /** Waits until {@link #run} has closed its files. */
    boolean awaitFinished(long seconds) throws InterruptedException {
        return finished.await(seconds, TimeUnit.SECONDS);
    }

    /**
     * @return 0 when the run completed; 1 when the job failed (cause on stderr); 3 when stopped early
     */
    int run(PrintStream err) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        long warmupMillis = Math.round(scenario.warmupSeconds() * 1_000);
        try (LatencyLogs logs = LatencyLogs.startUnticked(warmupMillis);
             Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(scenario.threads()));
             PrintWriter throughput = csv("throughput.csv", "time_s,events,events_per_s");
             PrintWriter cpu = csv("cpu.csv", "time_s,cpu_seconds")) {
            LatencyLog latency = logs.open(dir.resolve("latency.hlog"));
            WindowLatencyRecorder windows = null;
            Pipeline pipeline = Pipeline.create();
            if (kafkaEndpoint != null) {
                kafka = new KafkaLoad(scenario, kafkaEndpoint, dir);
                load = kafka;
                windows = kafka.attach(pipeline, latency, logs, dir, this::countProcessed);
            } else {
                NexmarkQuery<?> query = Queries.create(scenario.query(), pipeline, scenario.parameters());
                if (query instanceof PerEventQuery<?> perEvent) {
                    attachPerEvent(pipeline, perEvent, latency, logs);
                } else {
                    windows = new WindowLatencyRecorder(latency, logs.open(dir.resolve("completion.hlog")), logs.clock());
                    attachWindowed(pipeline, query, windows);
                }
            }
            long t0Nanos = System.nanoTime();
            Job job = engine.newJob(pipeline);
            job.future().whenComplete((ignored, failure) -> wake.countDown());

            Sampler sampler = new Sampler(t0Nanos, latency, throughput, cpu);
            long endNanos = t0Nanos + (long) ((scenario.warmupSeconds() + scenario.durationSeconds()) * NANOS_PER_SECOND);
            for (long tick = 1; ; tick++) {
                long due = Math.min(t0Nanos + tick * NANOS_PER_SECOND, endNanos);
                if (wake.await(due - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    break;
                }
                logs.writeIntervals();
                sampler.sample();
                if (due >= endNanos) {
                    break;
                }
            }
            Throwable failure = failureOf(job);
            job.cancel();
            awaitEnd(job);
            if (kafka != null) {
                kafka.close();
            }
            if (failure != null) {
                err.println("member: the job failed: " + failure);
                failure.printStackTrace(err);
                return 1;
            }
            logs.close();
            writeMemberJson(logs, sampler, windows, latency, job.metrics());
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

    private void attachPerEvent(Pipeline pipeline, PerEventQuery<?> query, LatencyLog latency, LatencyLogs logs) {
        GeneratorConfig config = generatorConfig();
        StreamStage<Scheduled<Event>> events = pipeline.readFrom(Sources.generator(scenario.rate(), Long.MAX_VALUE, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (sequence, scheduledNanos) -> new Scheduled<Event>(generator.event(sequence, millis(scheduledNanos)), scheduledNanos);
        }, monitor)).withoutTimestamps();
        attachScheduled(query, events.filter(this::countProcessed))
                .writeTo(Sinks.fromProcessor("latency", () -> new PerEventLatencySinkP(latency, logs.clock())));
    }

    static <R> StreamStage<Scheduled<R>> attachScheduled(PerEventQuery<R> query, StreamStage<Scheduled<Event>> events) {
        return query.attach(events, Scheduled::item, (event, result) -> new Scheduled<>(result, event.scheduledEpochNanos()));
    }

    private void attachWindowed(Pipeline pipeline, NexmarkQuery<?> query, WindowLatencyRecorder windows) {
        GeneratorConfig config = generatorConfig();
        StreamStage<Event> events = pipeline.readFrom(Sources.generator(scenario.rate(), Long.MAX_VALUE, () -> {
            NexmarkGenerator generator = new NexmarkGenerator(config);
            return (sequence, scheduledNanos) -> generator.event(sequence, millis(scheduledNanos));
        }, monitor)).withTimestamps(Event::dateTime, 0);
        query.attach(events.filter(this::countProcessed)).writeTo(windowLatencySink(windows, scenario.threads()));
    }

    /** The sink that records window latency, one instance per worker thread. */
    static <R> Sink<R> windowLatencySink(WindowLatencyRecorder windows, int threads) {
        WindowLatencySinkP.SinkWatermarks watermarks = new WindowLatencySinkP.SinkWatermarks(threads);
        return Sinks.fromProcessor("window-latency", () -> new WindowLatencySinkP(windows, watermarks));
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

    private static Throwable failureOf(Job job) throws InterruptedException {
        if (!job.isDone()) {
            return null;
        }
        try {
            job.future().get();
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

    private PrintWriter csv(String name, String header) throws IOException {
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8));
        w.println(header);
        w.flush();
        return w;
    }

    /** The once-a-second samples: CSV rows and the progress line, all from the same instant. */
    private final class Sampler {
        private final long t0Nanos;
        private final LatencyLog latency;
        private final PrintWriter throughput;
        private final PrintWriter cpu;
        private long lastNanos;
        private long lastGenerated;
        private long lastProcessed;
        /** Events generated and time when the warm-up ended; -1 before. */
        private long generatedAtWarmupEnd = -1;
        private long warmupEndNanos;
        private long generatedAtEnd;
        private long endNanos;

        Sampler(long t0Nanos, LatencyLog latency, PrintWriter throughput, PrintWriter cpu) {
            this.t0Nanos = t0Nanos;
            this.latency = latency;
            this.throughput = throughput;
            this.cpu = cpu;
            this.lastNanos = t0Nanos;
        }

        void sample() {
            long now = System.nanoTime();
            long generated = load.emitted();
            long processedNow = processed.sum();
            double elapsed = (now - t0Nanos) / 1e9;
            double interval = Math.max((now - lastNanos) / 1e9, 1e-9);
            // An interval belongs to the warm-up if it started in it, as in the .hlog's tags.
            boolean warmup = (lastNanos - t0Nanos) / 1e9 < scenario.warmupSeconds() - 1e-3;
            if (!warmup && generatedAtWarmupEnd < 0) {
                generatedAtWarmupEnd = lastGenerated;
                warmupEndNanos = lastNanos;
            }
            throughput.printf(Locale.ROOT, "%.3f,%d,%.1f%n", elapsed, processedNow, (processedNow - lastProcessed) / interval);
            throughput.flush();
            cpu.printf(Locale.ROOT, "%.3f,%.3f%n", elapsed, os.getProcessCpuTime() / 1e9);
            cpu.flush();
            Histogram last = latency.lastInterval();
            boolean any = last != null && last.getTotalCount() > 0;
            out.printf(Locale.ROOT, "{\"type\":\"progress\",\"elapsed_s\":%.3f,\"phase\":\"%s\",\"target_rate\":%s,\"achieved_rate\":%.1f,"
                            + "\"p99_us\":%s,\"p9999_us\":%s,\"behind_ms\":%.3f}%n",
                    elapsed, warmup ? "warmup" : "measure", number(scenario.rate()), (generated - lastGenerated) / interval,
                    any ? Long.toString(last.getValueAtPercentile(99)) : "null",
                    any ? Long.toString(last.getValueAtPercentile(99.99)) : "null",
                    load.lagNanos() / 1e6);
            out.flush();
            lastNanos = now;
            lastGenerated = generated;
            lastProcessed = processedNow;
            generatedAtEnd = generated;
            endNanos = now;
        }

        /** Events/s the generator sent over the measurement (after the warm-up). */
        double achievedRate() {
            if (generatedAtWarmupEnd < 0 || endNanos <= warmupEndNanos) {
                return 0;
            }
            return (generatedAtEnd - generatedAtWarmupEnd) / ((endNanos - warmupEndNanos) / 1e9);
        }
    }

    static long sumOf(Map<String, Long> metrics, String suffix) {
        return metrics.entrySet().stream().filter(e -> e.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private void writeMemberJson(LatencyLogs logs, Sampler sampler, WindowLatencyRecorder windows, LatencyLog latency,
                                 Map<String, Long> jobMetrics) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = json.createObjectNode();
        long startMicros = logs.startMicros();
        m.put("started_at", Instant.ofEpochSecond(startMicros / 1_000_000, (startMicros % 1_000_000) * 1_000).toString());
        m.put("events_generated", load.emitted());
        m.put("events_processed", processed.sum());
        // Events behind the watermark, dropped by a window's first stage; and partial aggregates
        // dropped by its second stage because their window had already been emitted.
        m.put("late_events", sumOf(jobMetrics, ".lateItems"));
        m.put("late_window_partials", sumOf(jobMetrics, ".lateFrames"));
        m.put("dropped_events", 0);
        m.put("achieved_rate", sampler.achievedRate());
        m.put("jdk", System.getProperty("java.runtime.version"));
        m.put("gc", ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", ")));
        m.putPOJO("jvm_flags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        m.put("query", scenario.query());
        m.put("threads", scenario.threads());
        m.put("throughput_counts", "events reaching the query's first stage");
        m.put("latency_values_clamped", latency.clampedValues());
        if (windows != null) {
            m.put("window_results_after_completion", windows.lateResults());
        }
        if (kafka != null) {
            kafka.describe(m, jobMetrics);
        }
        Files.writeString(dir.resolve("member.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n");
    }
}
