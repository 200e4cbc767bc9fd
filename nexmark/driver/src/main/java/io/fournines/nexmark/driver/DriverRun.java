package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.latency.LatencyLog;
import io.fournines.nexmark.latency.LatencyLogs;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
import io.fournines.nexmark.run.MemberJson;
import io.fournines.nexmark.run.RunSampler;
import io.fournines.nexmark.run.StoppableRun;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One run of a peer engine under the member contract: the engine's job fed by the paced
 * generator, and once a second, on one clock, a latency interval, a throughput row, a CPU row and
 * a progress line; member.json and {@code {"type":"done"}} at the end.
 */
public final class DriverRun implements StoppableRun {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final DriverScenario scenario;
    private final PeerEngine engine;
    private final Path dir;
    private final PrintStream out;
    private final CountDownLatch wake = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;

    public DriverRun(DriverScenario scenario, PeerEngine engine, Path dir, PrintStream out) {
        this.scenario = scenario;
        this.engine = engine;
        this.dir = dir;
        this.out = out;
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

    /** @return 0 completed; 1 the job failed (cause on {@code err}); 3 stopped early */
    @Override
    public int run(PrintStream err) throws Exception {
        Files.createDirectories(dir);
        long warmupMillis = Math.round(scenario.warmupSeconds() * 1_000);
        RunContext run = null;
        try (PeerEngine.Cluster cluster = engine.start(scenario, dir);
             LatencyLogs logs = LatencyLogs.startUnticked(warmupMillis);
             PrintWriter throughput = RunSampler.csv(dir, "throughput.csv", "time_s,events,events_per_s");
             PrintWriter cpu = RunSampler.csv(dir, "cpu.csv", "time_s,cpu_seconds")) {
            LatencyLog latency = logs.open(dir.resolve("latency.hlog"));
            WindowLatencyRecorder windows = scenario.windowed()
                    ? new WindowLatencyRecorder(latency, logs.open(dir.resolve("completion.hlog")), logs.clock()) : null;
            run = RunContext.measuring(UUID.randomUUID().toString(), logs.clock(), scenario.windowed() ? null : latency, windows);
            long t0Nanos = System.nanoTime();
            RunSampler sampler = new RunSampler(t0Nanos, scenario.warmupSeconds(), scenario.rate(), latency, throughput, cpu, out,
                    run::generatedEvents, run::processedEvents, run::behindNanos);
            CompletableFuture<?> job = cluster.submit(scenario, run);
            job.whenComplete((ignored, e) -> wake.countDown());
            long endNanos = t0Nanos + (long) ((scenario.warmupSeconds() + scenario.durationSeconds()) * NANOS_PER_SECOND);
            sampler.everySecondUntil(endNanos, logs, wake);
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

    private void writeMemberJson(LatencyLogs logs, RunContext run, RunSampler sampler, WindowLatencyRecorder windows, LatencyLog latency,
                                 Map<String, Object> facts) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = MemberJson.contractFields(json, logs.startMicros(), run.generatedEvents(), run.processedEvents(), run.lateEvents(),
                sampler.achievedRate());
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
