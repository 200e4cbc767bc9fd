package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.latency.LatencyLog;
import io.fournines.nexmark.latency.LatencyLogs;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One run of a peer engine under the member contract: the engine's job fed by the paced
 * generator, and once a second, on one clock, a latency interval, a throughput row, a CPU row and
 * a progress line; member.json and {@code {"type":"done"}} at the end.
 */
public final class DriverRun {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final DriverScenario scenario;
    private final PeerEngine engine;
    private final Path dir;
    private final PrintStream out;
    private final CountDownLatch wake = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public DriverRun(DriverScenario scenario, PeerEngine engine, Path dir, PrintStream out) {
        this.scenario = scenario;
        this.engine = engine;
        this.dir = dir;
        this.out = out;
    }

    /** From another thread (a signal): stop the job, close the files, return from {@link #run}. */
    public void requestStop() {
        stopRequested = true;
        wake.countDown();
    }

    public boolean awaitFinished(long seconds) throws InterruptedException {
        return finished.await(seconds, TimeUnit.SECONDS);
    }

    /** @return 0 completed; 1 the job failed (cause on {@code err}); 3 stopped early */
    public int run(PrintStream err) throws Exception {
        Files.createDirectories(dir);
        long warmupMillis = Math.round(scenario.warmupSeconds() * 1_000);
        RunContext run = null;
        try (PeerEngine.Cluster cluster = engine.start(scenario, dir);
             LatencyLogs logs = LatencyLogs.startUnticked(warmupMillis);
             PrintWriter throughput = csv("throughput.csv", "time_s,events,events_per_s");
             PrintWriter cpu = csv("cpu.csv", "time_s,cpu_seconds")) {
            LatencyLog latency = logs.open(dir.resolve("latency.hlog"));
            WindowLatencyRecorder windows = scenario.windowed()
                    ? new WindowLatencyRecorder(latency, logs.open(dir.resolve("completion.hlog")), logs.clock()) : null;
            run = RunContext.measuring(UUID.randomUUID().toString(), logs.clock(), scenario.windowed() ? null : latency, windows);
            long t0Nanos = System.nanoTime();
            Sampler sampler = new Sampler(run, t0Nanos, latency, throughput, cpu);
            CompletableFuture<?> job = cluster.submit(scenario, run);
            job.whenComplete((ignored, e) -> wake.countDown());
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
            Map<String, Object> facts = cluster.facts();
            if (failure != null) {
                err.println(engine.name() + " member: the job failed: " + failure);
                failure.printStackTrace(err);
                return 1;
            }
            cluster.close();
            logs.close();
            writeMemberJson(logs, run, sampler, windows, latency, facts);
            if (stopRequested) {
                err.println(engine.name() + " member: stopped before the end of the run");
                return 3;
            }
            out.println("{\"type\":\"done\"}");
            out.flush();
            return 0;
        } finally {
            if (run != null) {
                run.unregister();
            }
            finished.countDown();
        }
    }

    /** The job's failure, or null while it runs (an endless job ends only by failing or being stopped). */
    private Throwable failureOf(CompletableFuture<?> job) throws InterruptedException {
        if (!job.isDone()) {
            return null;
        }
        try {
            job.get();
            return stopRequested ? null : new IllegalStateException("the endless job ended by itself");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private PrintWriter csv(String name, String header) throws IOException {
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8));
        w.println(header);
        w.flush();
        return w;
    }

    /** One row per second into each CSV and a progress line; the numbers member.json needs. */
    private final class Sampler {
        private final RunContext run;
        private final long t0Nanos;
        private final LatencyLog latency;
        private final PrintWriter throughput;
        private final PrintWriter cpu;
        private long lastNanos;
        private long lastGenerated;
        private long lastProcessed;
        private long generatedAtWarmupEnd = -1;
        private long warmupEndNanos;
        private long generatedAtEnd;
        private long endNanos;

        Sampler(RunContext run, long t0Nanos, LatencyLog latency, PrintWriter throughput, PrintWriter cpu) {
            this.run = run;
            this.t0Nanos = t0Nanos;
            this.latency = latency;
            this.throughput = throughput;
            this.cpu = cpu;
            this.lastNanos = t0Nanos;
        }

        void sample() {
            long now = System.nanoTime();
            long generated = run.generatedEvents();
            long processed = run.processedEvents();
            double elapsed = (now - t0Nanos) / 1e9;
            double interval = Math.max((now - lastNanos) / 1e9, 1e-9);
            // An interval belongs to the warm-up if it started in it, as in the .hlog's tags.
            boolean warmup = (lastNanos - t0Nanos) / 1e9 < scenario.warmupSeconds() - 1e-3;
            if (!warmup && generatedAtWarmupEnd < 0) {
                generatedAtWarmupEnd = lastGenerated;
                warmupEndNanos = lastNanos;
            }
            throughput.printf(Locale.ROOT, "%.3f,%d,%.1f%n", elapsed, processed, (processed - lastProcessed) / interval);
            throughput.flush();
            cpu.printf(Locale.ROOT, "%.3f,%.3f%n", elapsed, os.getProcessCpuTime() / 1e9);
            cpu.flush();
            Histogram last = latency.lastInterval();
            boolean any = last != null && last.getTotalCount() > 0;
            out.printf(Locale.ROOT, "{\"type\":\"progress\",\"elapsed_s\":%.3f,\"phase\":\"%s\",\"target_rate\":%d,\"achieved_rate\":%.1f,"
                            + "\"p99_us\":%s,\"p9999_us\":%s,\"behind_ms\":%.3f}%n",
                    elapsed, warmup ? "warmup" : "measure", scenario.rate(), (generated - lastGenerated) / interval,
                    any ? Long.toString(last.getValueAtPercentile(99)) : "null",
                    any ? Long.toString(last.getValueAtPercentile(99.99)) : "null",
                    run.behindNanos() / 1e6);
            out.flush();
            lastNanos = now;
            lastGenerated = generated;
            lastProcessed = processed;
            generatedAtEnd = generated;
            endNanos = now;
        }

        double achievedRate() {
            if (generatedAtWarmupEnd < 0 || endNanos <= warmupEndNanos) {
                return 0;
            }
            return (generatedAtEnd - generatedAtWarmupEnd) / ((endNanos - warmupEndNanos) / 1e9);
        }
    }

    private void writeMemberJson(LatencyLogs logs, RunContext run, Sampler sampler, WindowLatencyRecorder windows, LatencyLog latency,
                                 Map<String, Object> facts) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = json.createObjectNode();
        long startMicros = logs.startMicros();
        m.put("started_at", Instant.ofEpochSecond(startMicros / 1_000_000, (startMicros % 1_000_000) * 1_000).toString());
        m.put("events_generated", run.generatedEvents());
        m.put("events_processed", run.processedEvents());
        m.put("late_events", run.lateEvents());
        m.put("dropped_events", 0);
        m.put("achieved_rate", sampler.achievedRate());
        m.put("jdk", System.getProperty("java.runtime.version"));
        m.put("gc", ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", ")));
        m.putPOJO("jvm_flags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        m.put("engine", engine.name());
        m.put("query", scenario.query());
        m.put("threads", scenario.threads());
        m.put("throughput_counts", "events reaching the query's first stage");
        m.put("latency_values_clamped", latency.clampedValues());
        if (windows != null) {
            m.put("window_results_after_completion", windows.lateResults());
        }
        m.putPOJO("engine_settings", facts);
        Files.writeString(dir.resolve("member.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n");
    }
}
