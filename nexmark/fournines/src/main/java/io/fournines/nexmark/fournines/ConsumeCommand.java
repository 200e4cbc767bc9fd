package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.nexmark.driver.CsvFile;
import io.fournines.nexmark.driver.RunFiles;
import io.fournines.nexmark.driver.HostStealLog;
import io.fournines.nexmark.driver.RunSampler;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.ScenarioException;
import io.fournines.nexmark.driver.latency.LatencyLog;
import io.fournines.nexmark.driver.latency.LatencyLogs;
import io.fournines.nexmark.driver.latency.WindowLatencyRecorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code fournines-member consume}: the active-active result consumer ({@link ResultConsumer}) as a process of its own. */
@Command(name = "consume",
        description = {
            "Listens for the results of an active-active run's copies, keeps the first copy of each (window, key) and measures",
            "that output's latency: latency.hlog, completion.hlog (windowed queries), throughput.csv (results received, kept),",
            "cpu.csv, load.csv (results received, no lag) and consumer.json in DIR, a progress line each second. Prints {\"type\":\"ready\",\"consumer\":\"HOST:PORT\"} once",
            "listening; starts measuring at the copies' start instant (from the first member that connects) and stops after",
            "warmup_s + duration_s. Exit: 0 done, 1 a result file could not be written, 2 bad arguments or scenario, 3 stopped early."})
final class ConsumeCommand implements Callable<Integer> {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    RunFiles files;

    @Option(names = "--listen", defaultValue = "127.0.0.1:0", paramLabel = "HOST:PORT", description = "where members connect (default: ${DEFAULT-VALUE})")
    String listen;

    @Option(names = "--copies", defaultValue = "2", description = "copies of the job (default: ${DEFAULT-VALUE})")
    int copies;

    @Option(names = "--members-per-copy", required = true, description = "members that run each copy")
    int membersPerCopy;

    @Option(names = "--record-results", description = "also write every result received and kept (results-*.tsv): for tests")
    boolean recordResults;

    @Override
    public Integer call() throws Exception {
        Scenario scenario;
        InetSocketAddress address;
        try {
            scenario = Scenario.read(files.scenario, FourninesEngine.NAME);
            address = ClusterConfig.address(listen);
            if (copies < 1 || membersPerCopy < 1) {
                throw new IllegalArgumentException("--copies and --members-per-copy must be at least 1");
            }
        } catch (ScenarioException | IllegalArgumentException e) {
            System.err.println("consumer: " + e.getMessage());
            return 2;
        }
        Files.createDirectories(files.out);
        CountDownLatch wake = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            wake.countDown();
            try {
                finished.await(8, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consumer-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return consume(scenario, address, wake);
        } catch (IOException e) {
            // A result file that could not be written: the run has lost data and must not pass.
            System.err.println("consumer: " + e.getMessage());
            return 1;
        } finally {
            finished.countDown();
        }
    }

    private int consume(Scenario scenario, InetSocketAddress address, CountDownLatch wake) throws Exception {
        ResultConsumer.ResultRecord record = recordResults ? new ResultConsumer.ResultRecord(files.out) : null;
        try (ResultConsumer consumer = new ResultConsumer(address, copies, membersPerCopy, scenario.windowed(), record, System.err)) {
            InetSocketAddress a = consumer.address();
            System.out.println("{\"type\":\"ready\",\"consumer\":\"" + a.getHostString() + ":" + a.getPort() + "\"}");
            System.out.flush();
            long startEpochNanos = consumer.awaitStart(wake);
            if (startEpochNanos < 0) {
                System.err.println("consumer: stopped before any copy connected");
                return 3;
            }
            // Measure from the copies' start, as their members do: their logs and these share t0.
            long wait = startEpochNanos - System.currentTimeMillis() * 1_000_000L;
            if (wait > 0 && wake.await(wait, TimeUnit.NANOSECONDS)) {
                return 3;
            }
            return measure(consumer, scenario, wake);
        }
    }

    private int measure(ResultConsumer consumer, Scenario scenario, CountDownLatch wake) throws Exception {
        try (LatencyLogs logs = LatencyLogs.start(Math.round(scenario.warmupSeconds() * 1_000));
             CsvFile throughput = CsvFile.create(files.out, "throughput.csv", "time_s,events,events_per_s");
             CsvFile cpu = CsvFile.create(files.out, "cpu.csv", "time_s,cpu_seconds");
             CsvFile load = CsvFile.create(files.out, "load.csv", RunSampler.LOAD_HEADER);
             HostStealLog host = HostStealLog.openIfAvailable(files.out)) {
            long t0Nanos = System.nanoTime();
            LatencyLog latency = logs.open(files.out.resolve("latency.hlog"));
            WindowLatencyRecorder windows = scenario.windowed()
                    ? new WindowLatencyRecorder(latency, logs.open(files.out.resolve("completion.hlog")), logs.clock()) : null;
            consumer.measure(logs.clock(), windows, windows == null ? latency : null);
            // Progress: "events" are results here, received from all copies and kept.
            RunSampler sampler = new RunSampler(t0Nanos, scenario.warmupSeconds(), scenario.rate(), latency, throughput, cpu, load, host == null ? List.of() : List.of(host), System.out,
                    consumer::receivedCount, consumer::keptCount, () -> 0);
            long endNanos = t0Nanos + (long) ((scenario.warmupSeconds() + scenario.durationSeconds()) * NANOS_PER_SECOND);
            boolean stopped = sampler.everySecondUntil(endNanos, logs, wake);
            consumer.end();
            logs.close();
            ObjectMapper json = new ObjectMapper();
            ObjectNode m = consumer.describe(json);
            m.put("started_at_micros", logs.startMicros());
            m.put("latency_values_clamped", latency.clampedValues());
            Path summary = files.out.resolve("consumer.json");
            try {
                Files.writeString(summary, json.writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n");
            } catch (IOException e) {
                throw new IOException("cannot write " + summary + ": " + e.getMessage(), e);
            }
            if (stopped) {
                System.err.println("consumer: stopped before the end of the run");
                return 3;
            }
            System.out.println("{\"type\":\"done\"}");
            System.out.flush();
            return 0;
        }
    }
}
