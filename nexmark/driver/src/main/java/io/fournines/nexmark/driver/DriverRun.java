package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.driver.latency.LatencyLogs;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One member's run under the member contract, the same for every engine: the engine's job, and
 * once a second, on one clock, a latency interval, a throughput row, a CPU row, the host's, the
 * vertices' and the snapshots' rows (where the host and the engine can say) and a progress line;
 * member.json and {@code {"type":"done"}} at the end.
 */
public final class DriverRun implements StoppableRun {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Scenario scenario;
    private final EngineAdapter engine;
    private final Path dir;
    private final PrintStream out;
    private final CountDownLatch wake = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;

    public DriverRun(Scenario scenario, EngineAdapter engine, Path dir, PrintStream out) {
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

    /** @return 0 completed; 1 the job failed or a result file could not be written (cause on {@code err}); 3 stopped early, or never taken into the job */
    @Override
    public int run(PrintStream err) throws Exception {
        String who = engine.name() + " member: ";
        Files.createDirectories(dir);
        MemberJobs jobs = null;
        try (EngineAdapter.Running running = engine.start(scenario, dir)) {
            long lateNanos = running.joinedLateNanos();
            long warmupMillis = Math.max(0, Math.round(scenario.warmupSeconds() * 1_000) - lateNanos / 1_000_000);
            try (LatencyLogs logs = LatencyLogs.start(warmupMillis);
                 CsvFile throughput = CsvFile.create(dir, "throughput.csv", "time_s,events,events_per_s");
                 CsvFile cpu = CsvFile.create(dir, "cpu.csv", "time_s,cpu_seconds");
                 CsvFile load = CsvFile.create(dir, "load.csv", RunSampler.LOAD_HEADER);
                 HostStealLog host = HostStealLog.openIfAvailable(dir);
                 VertexLog vertices = new VertexLog(dir, running);
                 SnapshotLog snapshots = new SnapshotLog(dir, running)) {
                jobs = MemberJobs.open(scenario, dir, logs, out);
                long t0Nanos = System.nanoTime() - lateNanos;
                CompletableFuture<?> job = jobs.submitTo(running);
                job.whenComplete((ignored, e) -> wake.countDown());
                RunSampler sampler = new RunSampler(t0Nanos, scenario.warmupSeconds(), scenario.rate(), jobs.latency(), throughput, cpu, load,
                        host == null ? List.of(vertices, snapshots) : List.of(host, vertices, snapshots), out, jobs::generatedEvents, jobs::processedEvents, jobs::behindNanos);
                long endNanos = t0Nanos + (long) ((scenario.warmupSeconds() + scenario.durationSeconds()) * NANOS_PER_SECOND);
                sampler.everySecondUntil(endNanos, logs, wake);
                Throwable failure = failureOf(job);
                running.close();
                if (failure != null) {
                    err.println(who + "the job failed: " + failure);
                    failure.printStackTrace(err);
                    return 1;
                }
                logs.close();
                if (!running.tookPart()) {
                    err.println(who + "the run ended before the job took this member in");
                    return 3;
                }
                writeMemberJson(logs, jobs, sampler, running);
                if (stopRequested) {
                    err.println(who + "stopped before the end of the run");
                    return 3;
                }
                out.println("{\"type\":\"done\"}");
                out.flush();
                return 0;
            }
        } catch (IOException e) {
            // A result file that could not be written (a full disk): the run has lost data and must not pass.
            err.println(who + e.getMessage());
            return 1;
        } finally {
            if (jobs != null) {
                jobs.unregister();
            }
            finished.countDown();
        }
    }

    /**
     * The job's failure, or null while it runs or once cancelled (an endless job ends only by failing
     * or being stopped), or once a bounded one completed (it must have by the end of the run).
     */
    private Throwable failureOf(CompletableFuture<?> job) throws InterruptedException {
        if (!job.isDone()) {
            return scenario.bounded() && !stopRequested ? new IllegalStateException("the job did not process its " + scenario.events()
                    + " events within warm-up + duration (" + (scenario.warmupSeconds() + scenario.durationSeconds()) + " s)") : null;
        }
        try {
            job.get();
            return stopRequested || scenario.bounded() ? null : new IllegalStateException("the job ended by itself, but a streaming job never should");
        } catch (CancellationException e) {
            return null;
        } catch (ExecutionException e) {
            // Several jobs end as the first of them does, which may be a cancelled one.
            return e.getCause() instanceof CancellationException ? null : e.getCause();
        }
    }

    private void writeMemberJson(LatencyLogs logs, MemberJobs jobs, RunSampler sampler, EngineAdapter.Running running) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode m = MemberJson.contractFields(json, logs.startMicros(), jobs.generatedEvents(), jobs.processedEvents(), jobs.lateEvents(),
                sampler.achievedRate());
        m.put("engine", engine.name());
        m.put("query", scenario.query());
        m.put("threads", scenario.threads());
        m.put("throughput_counts", "events reaching the query's first stage");
        m.put("latency_values_clamped", jobs.latency().clampedValues());
        m.putPOJO("hlog_values_written", logs.valuesWritten(dir));
        if (scenario.windowed()) {
            m.put("window_results_after_completion", jobs.windowResultsAfterCompletion());
        }
        jobs.describe(m, logs);
        running.describe(m);
        Path file = dir.resolve("member.json");
        try {
            Files.writeString(file, json.writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n");
        } catch (IOException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
