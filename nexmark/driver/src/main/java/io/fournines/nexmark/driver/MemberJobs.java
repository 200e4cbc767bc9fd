package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.driver.latency.LatencyLog;
import io.fournines.nexmark.driver.latency.LatencyLogs;
import io.fournines.nexmark.driver.latency.LatencyRecording;
import io.fournines.nexmark.driver.latency.WindowLatencyRecorder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The jobs of one member's run, each with its own {@link RunContext}. One job records straight into
 * the run's latency logs, as a member always has. Several (the scenario's {@code jobs}, the Jet
 * paper's multiplexing) each record into logs of their own in {@code job-<k>/} and into the run's at
 * once, so the run's logs hold every job's latencies merged and every analysis reads them as it
 * reads one job's; the run's counts are the jobs' sums and its schedule lag their worst.
 */
final class MemberJobs {

    static final String LATENCY_FILE = "latency.hlog";
    static final String COMPLETION_FILE = "completion.hlog";

    private final LatencyLog latency;
    private final List<OneJob> jobs;

    /** One job: its share of the scenario, its run, the folder of its own logs (the run's for a lone job), its window recorder or null. */
    private record OneJob(Scenario scenario, RunContext run, Path folder, WindowLatencyRecorder windows) {
    }

    private MemberJobs(LatencyLog latency, List<OneJob> jobs) {
        this.latency = latency;
        this.jobs = jobs;
    }

    /** Opens the run's logs in {@code dir}, and each job's when there are several, and registers each job's run. */
    static MemberJobs open(Scenario scenario, Path dir, LatencyLogs logs, PrintStream out) throws IOException {
        LatencyLog latency = logs.open(dir.resolve(LATENCY_FILE));
        LatencyLog completion = scenario.windowed() ? logs.open(dir.resolve(COMPLETION_FILE)) : null;
        List<OneJob> jobs = new ArrayList<>();
        try {
            if (scenario.jobs() == 1) {
                jobs.add(measuring(scenario, dir, latency, completion, logs, out));
            } else {
                for (int k = 0; k < scenario.jobs(); k++) {
                    Path folder = Files.createDirectories(dir.resolve("job-" + (k + 1)));
                    LatencyRecording own = LatencyRecording.both(logs.open(folder.resolve(LATENCY_FILE)), latency);
                    LatencyRecording ownCompletion = completion == null ? null
                            : LatencyRecording.both(logs.open(folder.resolve(COMPLETION_FILE)), completion);
                    jobs.add(measuring(scenario.job(k), folder, own, ownCompletion, logs, out));
                }
            }
        } catch (IOException | RuntimeException e) {
            jobs.forEach(job -> job.run().unregister());
            throw e;
        }
        return new MemberJobs(latency, List.copyOf(jobs));
    }

    private static OneJob measuring(Scenario scenario, Path folder, LatencyRecording latency, LatencyRecording completion, LatencyLogs logs,
                                    PrintStream out) {
        WindowLatencyRecorder windows = completion == null ? null : new WindowLatencyRecorder(latency, completion, logs.clock());
        RunContext run = RunContext.measuring(UUID.randomUUID().toString(), logs.clock(), windows == null ? latency : null, windows, out);
        return new OneJob(scenario, run, folder, windows);
    }

    /** The run's (merged) per-event or first-result latency log: the progress line's percentiles. */
    LatencyLog latency() {
        return latency;
    }

    /**
     * Submits every job into the one running engine; the future ends when the first job ends (an
     * endless job only fails or is cancelled), with that job's outcome.
     */
    CompletableFuture<?> submitTo(EngineAdapter.Running running) throws Exception {
        List<CompletableFuture<?>> submitted = new ArrayList<>();
        for (OneJob job : jobs) {
            submitted.add(running.submit(job.scenario(), job.run()));
        }
        return submitted.size() == 1 ? submitted.get(0) : CompletableFuture.anyOf(submitted.toArray(CompletableFuture[]::new));
    }

    long generatedEvents() {
        return jobs.stream().mapToLong(job -> job.run().generatedEvents()).sum();
    }

    long processedEvents() {
        return jobs.stream().mapToLong(job -> job.run().processedEvents()).sum();
    }

    long lateEvents() {
        return jobs.stream().mapToLong(job -> job.run().lateEvents()).sum();
    }

    /** The worst job's distance behind its schedule. */
    long behindNanos() {
        return jobs.stream().mapToLong(job -> job.run().behindNanos()).max().orElse(0);
    }

    /** Window results that came after their window was declared complete, over every job: should be 0. */
    long windowResultsAfterCompletion() {
        return jobs.stream().filter(job -> job.windows() != null).mapToLong(job -> job.windows().lateResults()).sum();
    }

    /** Several jobs: member.json's {@code per_job}, each job's rate, seed, counts and the values in its own logs. */
    void describe(ObjectNode memberJson, LatencyLogs logs) {
        if (jobs.size() == 1) {
            return;
        }
        ArrayNode perJob = memberJson.putArray("per_job");
        for (int k = 0; k < jobs.size(); k++) {
            OneJob job = jobs.get(k);
            ObjectNode j = perJob.addObject();
            j.put("job", k + 1);
            j.put("folder", job.folder().getFileName().toString());
            j.put("target_rate", job.scenario().generator().rate());
            j.put("seed", job.scenario().seed());
            j.put("events_generated", job.run().generatedEvents());
            j.put("events_processed", job.run().processedEvents());
            j.put("late_events", job.run().lateEvents());
            if (job.windows() != null) {
                j.put("window_results_after_completion", job.windows().lateResults());
            }
            j.putPOJO("hlog_values_written", logs.valuesWritten(job.folder()));
        }
    }

    /** Forgets every job's run; their sources and sinks must have stopped. */
    void unregister() {
        jobs.forEach(job -> job.run().unregister());
    }
}
