package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.FaultProxies;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.kafkalocal.LocalKafka;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.queries.ResultLines;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.reference.References;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Real member processes on loopback, talking over real sockets. */
class ClusterProcessesTest {

    private static final String SECRET = "cluster-test-secret-0123456789";

    @TempDir
    Path dir;

    private final Map<String, Process> processes = new java.util.concurrent.ConcurrentHashMap<>();
    /** The proxies in front of the members, once {@link #startThreeBehindProxies} started them. */
    private FaultProxies proxies;

    @AfterEach
    void killAll() {
        processes.values().forEach(Process::destroyForcibly);
        if (proxies != null) {
            proxies.close();
        }
    }

    private Process start(String name, String... args) throws IOException {
        return start(name, List.of(), args);
    }

    private Process start(String name, List<String> jvmFlags, String... args) throws IOException {
        return start(name, jvmFlags, List.of(args));
    }

    private Process start(String name, List<String> jvmFlags, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx192m", "-XX:+UseSerialGC"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile()).start();
        processes.put(name, p);
        return p;
    }

    private String log(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".err"));
    }

    /** The drivers' logs of {@code members}, one after the other: which of them coordinates is the majority's choice. */
    private String logs(List<Integer> members) throws IOException {
        return logs("driver-", members);
    }

    private String logs(String prefix, List<Integer> members) throws IOException {
        StringBuilder all = new StringBuilder();
        for (int m : members) {
            all.append(log(prefix + m));
        }
        return all.toString();
    }

    /** {@code n} distinct free ports: all held open until all are chosen (a port closed at once can be handed out again). */
    private static String freeAddresses(int n) throws IOException {
        List<String> list = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                list.add("127.0.0.1:" + s.getLocalPort());
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return String.join(",", list);
    }

    private Path secretFile(String secret) throws IOException {
        Path f = dir.resolve("secret-" + secret.hashCode());
        Files.writeString(f, secret);
        return f;
    }

    /** Runs the driver on 3 members; returns the union of their results, sorted. */
    private List<String> runOnThree(String query, long events, long slowMemberDelayMicros) throws Exception {
        return runOnThree(query, events, slowMemberDelayMicros, List.of());
    }

    private List<String> runOnThree(String query, long events, long slowMemberDelayMicros, List<String> jvmFlags) throws Exception {
        return runOnThree(query, events, slowMemberDelayMicros, jvmFlags, "NONE");
    }

    private List<String> runOnThree(String query, long events, long slowMemberDelayMicros, List<String> jvmFlags, String guarantee) throws Exception {
        List<Process> started = startThree(query, events, slowMemberDelayMicros, jvmFlags, guarantee, ClusterQueryDriver.DEFAULT_RATE, -1, "never");
        awaitSuccess(started, List.of(0, 1, 2));
        if (!guarantee.equals("NONE")) {
            return RecordingSinkP.recorded(dir.resolve("published"));
        }
        List<String> union = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            union.addAll(Files.readAllLines(dir.resolve("results-" + m + ".txt")));
        }
        return union.stream().sorted().toList();
    }

    /** A victim for {@link #startThree}: whichever member the majority elected coordinator. */
    private static final int COORDINATOR = -2;

    /** Starts the driver on 3 members; member {@code victim} ({@link #COORDINATOR}: the coordinator) freezes at {@code freezeAt}. */
    private List<Process> startThree(String query, long events, long slowMemberDelayMicros, List<String> jvmFlags, String guarantee, double rate,
                                     int victim, String freezeAt) throws Exception {
        String members = freeAddresses(3);
        // What an earlier run in this test left: its published results and its members' end markers.
        if (Files.exists(dir.resolve("published"))) {
            try (Stream<Path> files = Files.list(dir.resolve("published"))) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
        }
        for (int m = 0; m < 3; m++) {
            Files.deleteIfExists(dir.resolve("done-" + m));
        }
        this.members = members;
        List<Process> started = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            started.add(start("driver-" + m, jvmFlags, driverArgs(m, query, events, m == 2 ? slowMemberDelayMicros : 0, guarantee, rate,
                    victim == COORDINATOR ? "coordinator/" + freezeAt : m == victim ? freezeAt : "never", false)));
        }
        return started;
    }

    /**
     * Starts the driver on 3 members, each behind a proxy in this JVM ({@link #proxies}): the member
     * list names the proxies, so member j's connection to member i (j &gt; i dials) goes through proxy i.
     */
    private List<Process> startThreeBehindProxies(String query, long events, String guarantee, double rate) throws Exception {
        List<String> listen = List.of(freeAddresses(3).split(","));
        proxies = FaultProxies.start(Collections.nCopies(3, new InetSocketAddress("127.0.0.1", 0)),
                listen.stream().map(ClusterConfig::address).toList());
        this.members = proxies.addresses().stream().map(a -> "127.0.0.1:" + a.getPort()).collect(Collectors.joining(","));
        List<Process> started = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            started.add(start("driver-" + m, List.of("-Dfournines.test.listen=" + listen.get(m)),
                    driverArgs(m, query, events, 0, guarantee, rate, "never", false)));
        }
        return started;
    }

    /** The cluster the latest {@link #startThree} started. */
    private String members;

    private String[] driverArgs(int member, String query, long events, long sinkDelayMicros, String guarantee, double rate, String freezeAt,
                                boolean joining) throws IOException {
        return new String[] {ClusterQueryDriver.class.getName(), Integer.toString(member), members, secretFile(SECRET).toString(), query,
                Long.toString(events), dir.toString(), Long.toString(sinkDelayMicros), guarantee, Double.toString(rate), freezeAt,
                Boolean.toString(joining)};
    }

    /** The members end, each with exit 0. */
    private void awaitSuccess(List<Process> started, List<Integer> members) throws Exception {
        for (int m : members) {
            assertThat(started.get(m).waitFor(90, TimeUnit.SECONDS)).as("member %d ended", m).isTrue();
        }
        // Every member process's log: the first to fail is not always the one checked first.
        String logs;
        try (Stream<Path> files = Files.list(dir)) {
            logs = files.filter(f -> f.getFileName().toString().matches("driver-.*\\.err")).sorted().map(f -> {
                try {
                    return f.getFileName() + ":\n" + Files.readString(f);
                } catch (IOException e) {
                    return f.getFileName() + ": unreadable (" + e + ")";
                }
            }).collect(Collectors.joining("\n"));
        }
        for (int m : members) {
            assertThat(started.get(m).exitValue()).as("member %d exit; the logs:%n%s", m, logs).isZero();
        }
    }

    private Map<String, Long> metrics(int member) throws IOException {
        return ClusterQueryDriver.readMetrics(dir.resolve("metrics-" + member + ".txt"));
    }

    private static long sum(Map<String, Long> metrics, String contains, String suffix) {
        return metrics.entrySet().stream().filter(e -> e.getKey().contains(contains) && e.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }

    @Test
    void q5OnThreeMembersGivesTheResultsOfOne() throws Exception {
        List<String> alone = ClusterQueryDriver.runAlone("q5", 200_000);
        assertThat(alone).isNotEmpty();
        assertThat(runOnThree("q5", 200_000, 0)).isEqualTo(alone);
        // Partials crossed: every member sent some to the others.
        for (int m = 0; m < 3; m++) {
            assertThat(sum(metrics(m), "net:", ".sentItems")).as("items member %d sent", m).isPositive();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"micro-batch:100", "group:100:4"})
    void q5InBatchesOnThreeMembersGivesTheResultsOfOneRunContinuously(String execution) throws Exception {
        List<String> alone = ClusterQueryDriver.runAlone("q5", 200_000);
        assertThat(runOnThree("q5", 200_000, 0, List.of("-Dfournines.test.execution=" + execution))).isEqualTo(alone);
        for (int m = 0; m < 3; m++) {
            assertThat(sum(metrics(m), "net:", ".sentItems")).as("items member %d sent", m).isPositive();
        }
        // 0.4 s of events in batches of 100 ms, each of q5's two stages done, as member 0 (the scheduler) heard it; the others schedule nothing.
        assertThat(metrics(0).get("job.batchStagesDone")).isGreaterThanOrEqualTo(8);
        assertThat(metrics(1).get("job.batchStagesDone")).isZero();
    }

    @Test
    void q5WithoutLocalPreAggregationSendsRawEventsForTheSameResults() throws Exception {
        List<String> alone = ClusterQueryDriver.runAlone("q5", 100_000);
        assertThat(runOnThree("q5", 100_000, 0, List.of("-Dfournines.localPreAggregation=false"))).isEqualTo(alone);
        for (int m = 0; m < 3; m++) {
            // Two thirds of the bids go to another member's accumulator.
            assertThat(sum(metrics(m), "net:", ".sentItems")).as("items member %d sent", m).isGreaterThan(10_000);
        }
    }

    @Test
    void q5WithClusterSnapshotsGivesTheResultsOfOne() throws Exception {
        List<String> alone = ClusterQueryDriver.runAlone("q5", 300_000);
        for (String guarantee : List.of("EXACTLY_ONCE", "AT_LEAST_ONCE")) {
            // Barriers cross members, aligned (exactly-once) or not; the coordinator commits each snapshot on every member.
            // 2 s of events, not 0.6: snapshots start once every member runs the job, which a loaded machine delays.
            List<Process> started = startThree("q5", 300_000, 0, List.of(), guarantee, 150_000, -1, "never");
            awaitSuccess(started, List.of(0, 1, 2));
            assertThat(RecordingSinkP.recorded(dir.resolve("published"))).as(guarantee).isEqualTo(alone);
            for (int m = 0; m < 3; m++) {
                assertThat(metrics(m).get("job.snapshotsCommitted")).as("%s: snapshots member %d committed", guarantee, m).isPositive();
            }
        }
    }

    /**
     * A member is killed -9 at a chosen moment; the others restart the job from the latest committed
     * snapshot, the victim's state coming from its backup (the next member): the snapshot survives
     * losing its primary copy. Victim -2 ({@link #COORDINATOR}) is the coordinator, whichever member the majority elected:
     * losing it, the survivors elect another, which plans the restart. The query is a keyed windowed count, so every member has a sink to freeze in
     * (Q5's last stage runs on member 0). Exactly-once: the published output equals a fault-free
     * run's. At-least-once: every (window, key) of the fault-free run is there, with at least its
     * count (replays may count an item twice).
     */
    @ParameterizedTest(name = "{0}, member {1} killed at {2}")
    @CsvSource({
            "EXACTLY_ONCE, 2, processing:1500",
            "EXACTLY_ONCE, 2, snapshot:10",
            "EXACTLY_ONCE, 2, committed:10",
            "AT_LEAST_ONCE, 2, processing:1500",
            "AT_LEAST_ONCE, 2, snapshot:10",
            "AT_LEAST_ONCE, 2, committed:10",
            "EXACTLY_ONCE, -2, snapshot:10",
            "EXACTLY_ONCE, -2, committed:10",
    })
    void aMemberKilledMidRunIsRecoveredWithNothingLost(String guarantee, int chosen, String freezeAt) throws Exception {
        killAndRecover(guarantee, chosen, freezeAt, List.of());
    }

    /**
     * The same under micro-batch and group execution: the restarted execution schedules its batches
     * anew (from its first member), and the output equals a fault-free continuous run's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"micro-batch:100", "group:100:4"})
    void aMemberKilledInBatchesIsRecoveredWithNothingLost(String execution) throws Exception {
        killAndRecover("EXACTLY_ONCE", 2, "processing:1500", List.of("-Dfournines.test.execution=" + execution));
    }

    private void killAndRecover(String guarantee, int chosen, String freezeAt, List<String> jvmFlags) throws Exception {
        long events = 300_000;
        List<String> expected = ClusterQueryDriver.runAlone("count", events);
        assertThat(expected).hasSizeGreaterThan(1_000);
        List<Process> started = startThree("count", events, 0, jvmFlags, guarantee, 60_000, chosen, freezeAt);
        List<Integer> candidates = chosen == COORDINATOR ? List.of(0, 1, 2) : List.of(chosen);
        await().atMost(60, TimeUnit.SECONDS).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> candidates.stream()
                .anyMatch(m -> Files.exists(dir.resolve("frozen-" + m)) || !started.get(m).isAlive()));
        String candidateLogs = logs(candidates);
        int victim = candidates.stream().filter(m -> Files.exists(dir.resolve("frozen-" + m))).findFirst()
                .orElseThrow(() -> new AssertionError("no member reached " + freezeAt + "; their logs:\n" + candidateLogs));
        List<Integer> survivors = IntStream.range(0, 3).filter(m -> m != victim).boxed().toList();
        for (int m : survivors) {
            assertThat(started.get(m).isAlive()).as("member %d still running when member %d froze", m, victim).isTrue();
        }
        started.get(victim).destroyForcibly();

        awaitSuccess(started, survivors);
        String members = survivors.stream().map(String::valueOf).collect(Collectors.joining(","));
        assertThat(logs(survivors)).contains("restarting as attempt 1 on members " + members);
        for (int m : survivors) {
            assertThat(metrics(m).get("job.attempt")).as("attempt member %d ran last", m).isEqualTo(1);
            assertThat(log("driver-" + m)).contains("restarted: attempt 1");
        }
        List<String> output = RecordingSinkP.recorded(dir.resolve("published"));
        if (guarantee.equals("EXACTLY_ONCE")) {
            assertThat(output).isEqualTo(expected);
        } else {
            assertNothingLost(output, expected);
        }
    }

    /**
     * A processor failure (member 2's sink throws once, mid-run) on an exactly-once job: the member
     * asks the coordinator for a restart instead of failing the job, which restarts on the same
     * members from the latest committed snapshot; the output equals a fault-free run's.
     */
    @Test
    void aProcessorFailureRestartsTheJobFromItsLatestSnapshotWithNothingLost() throws Exception {
        long events = 300_000;
        List<String> expected = ClusterQueryDriver.runAlone("count", events);
        List<Process> started = startThree("count", events, 0, List.of(), "EXACTLY_ONCE", 60_000, 2, "fail/processing:1500");
        awaitSuccess(started, List.of(0, 1, 2));
        assertThat(log("driver-2")).contains("attempt 0 failed here").contains("a failure injected at processing:1500");
        assertThat(logs(List.of(0, 1, 2))).contains("restarting as attempt 1 on members 0,1,2")
                .containsPattern("member 2's part failed: .*a failure injected at processing:1500");
        assertThat(RecordingSinkP.recorded(dir.resolve("published"))).isEqualTo(expected);
    }

    /**
     * A snapshot that never completes (member 2 stops dead while saving one, its connections up, so
     * no one is lost): the coordinator gives it up after the snapshot timeout (3 s here: on a loaded
     * machine, members still starting up took over 1 s to save a job's first snapshot) and
     * restarts the job; the stuck member cannot save the next one either, and after three restarts
     * with no snapshot committed the job fails for good, naming the member that did not save. Before,
     * every later snapshot and all transactional output waited, with no alarm.
     */
    @Test
    void aSnapshotThatNeverCompletesIsAbortedAndAfterThreeFruitlessRestartsTheJobFailsNamingTheMember() throws Exception {
        List<Process> started = startThree("count", 3_000_000, 0, List.of("-Dfournines.test.snapshotTimeoutMs=3000"), "EXACTLY_ONCE",
                60_000, 2, "snapshot:10");
        await().atMost(60, TimeUnit.SECONDS).until(() -> Files.exists(dir.resolve("frozen-2")) || !started.get(0).isAlive());
        assertThat(dir.resolve("frozen-2")).as("member 2 froze at its tenth snapshot; the members said:%n%s", logs(List.of(0, 1, 2))).exists();
        await().atMost(90, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> logs(List.of(0, 1)).contains("failed for good"));
        assertThat(logs(List.of(0, 1))).contains("aborted: member(s) [2] did not save it within 3000 ms")
                .contains("restarting as attempt 3 on members 0,1,2")
                .contains("failed for good after 3 restarts with no snapshot committed in between; the last cause: snapshot");
        for (int m : List.of(0, 1)) {
            assertThat(started.get(m).waitFor(30, TimeUnit.SECONDS)).as("member %d ended", m).isTrue();
            assertThat(started.get(m).exitValue()).as("member %d's exit", m).isEqualTo(1);
        }
    }

    /**
     * Split brain, as reported: member 2 cut off from members 0 and 1 by a partition that keeps the
     * connections open (the proxies drop everything), during an exactly-once job. Before majority
     * views, both sides restarted the job alone ("restarting as attempt 1 on members 0,1" and "... on
     * members 2"), each generating its share twice. Now only the majority restarts; member 2 acts on
     * no view and restarts nothing; healed, the majority's coordinator takes it back in, and the
     * output equals a fault-free run's.
     */
    @Test
    void aPartitionedMemberRestartsNothingWhileTheMajorityGoesOnAndIsTakenBackInWhenHealed() throws Exception {
        long events = 300_000;
        List<String> expected = ClusterQueryDriver.runAlone("count", events);
        // 15 s at 20 000/s: the partition, its detection, the restart and the healing all fall inside.
        List<Process> started = startThreeBehindProxies("count", events, "EXACTLY_ONCE", 20_000);
        // A snapshot committed (its output published) before the partition.
        await().atMost(30, TimeUnit.SECONDS).until(() -> Files.exists(dir.resolve("published"))
                && !RecordingSinkP.recorded(dir.resolve("published")).isEmpty());
        proxies.isolate(2, true);
        await().atMost(20, TimeUnit.SECONDS).until(() -> logs(List.of(0, 1)).contains("restarting as attempt 1 on members 0,1"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> log("driver-2").contains("acts on no view"));
        Thread.sleep(2_000);  // member 2 alone, past its failure timeout
        assertThat(log("driver-2")).as("member 2, cut off").doesNotContain("restarting as attempt");
        proxies.isolate(2, false);

        awaitSuccess(started, List.of(0, 1, 2));
        assertThat(logs(List.of(0, 1))).contains("restarting as attempt 2 on members 0,1,2");
        assertThat(log("driver-2")).doesNotContain("restarting as attempt").contains("restarted: attempt 2 from snapshot");
        assertThat(RecordingSinkP.recorded(dir.resolve("published"))).isEqualTo(expected);
    }

    /**
     * Scale-out: member 2 is killed, the job restarts on members 0 and 1; member 2 is started again,
     * joins, and after the scale-out delay the job restarts on all three from the latest snapshot,
     * member 2 gathering all its state from the others. The output still equals a fault-free run's.
     */
    @Test
    void aKilledMemberStartedAgainIsTakenBackIntoTheJob() throws Exception {
        long events = 300_000;
        List<String> expected = ClusterQueryDriver.runAlone("count", events);
        // 15 s at 20 000/s: time for member 2's new JVM to start and join while the job still runs.
        List<Process> started = startThree("count", events, 0, List.of(), "EXACTLY_ONCE", 20_000, 2, "processing:300");
        await().atMost(60, TimeUnit.SECONDS).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> Files.exists(dir.resolve("frozen-2")));
        started.get(2).destroyForcibly();
        await().atMost(30, TimeUnit.SECONDS).until(() -> logs(List.of(0, 1)).contains("restarting as attempt 1 on members 0,1"));

        Process again = start("driver-2-again", List.of(), driverArgs(2, "count", events, 0, "EXACTLY_ONCE", 20_000, "never", true));
        awaitSuccess(List.of(started.get(0), started.get(1), again), List.of(0, 1, 2));
        assertThat(logs(List.of(0, 1))).contains("member 2 joined again").contains("restarting as attempt 2 on members 0,1,2");
        assertThat(log("driver-2-again")).contains("restarted: attempt 2 from snapshot");
        for (int m = 0; m < 3; m++) {
            assertThat(metrics(m).get("job.attempt")).as("attempt member %d ran last", m).isEqualTo(2);
        }
        assertThat(RecordingSinkP.recorded(dir.resolve("published"))).isEqualTo(expected);
    }

    /**
     * A Kafka source on 3 members, member 2 killed -9: the survivors restart from the snapshot, each
     * source seeking the offsets saved for the partitions it now reads (6 partitions over 4
     * instances instead of 6); the published output must become exactly the counts of what was
     * produced. When a survivor's partitions were read to the end before the snapshot, its sources
     * have nothing left to read and go idle, yet its first window stage holds partials restored from
     * the other instances (state follows the key): they must reach the second stage anyway.
     */
    @Test
    void aKafkaSourcedJobRestartsFromItsSnapshottedOffsets() throws Exception {
        int partitions = 6;
        long numbers = 200_000;
        try (LocalKafka kafka = LocalKafka.start(dir.resolve("kafka"))) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrap()))) {
                admin.createTopics(List.of(new NewTopic(ClusterQueryDriver.KAFKA_TOPIC, partitions, (short) 1))).all().get();
                // Created is not yet led: a partition's leader comes with the broker's next metadata update.
                await().atMost(30, TimeUnit.SECONDS).until(() -> admin.describeTopics(List.of(ClusterQueryDriver.KAFKA_TOPIC)).allTopicNames().get()
                        .get(ClusterQueryDriver.KAFKA_TOPIC).partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
            }
            // All in the topic before the members start: they read it as a backlog, and member 2 dies part-way.
            produce(kafka.bootstrap(), partitions, numbers, dir.resolve("kafka").resolve("broker.log"));
            startThree("kafka-count", numbers, 0, List.of("-Dfournines.test.kafka=" + kafka.bootstrap()), "EXACTLY_ONCE", 1, 2, "processing:500");
            await().atMost(60, TimeUnit.SECONDS).pollInterval(5, TimeUnit.MILLISECONDS).until(() -> Files.exists(dir.resolve("frozen-2")));
            processes.get("driver-2").destroyForcibly();

            List<String> expected = countsOf(numbers);
            Path published = dir.resolve("published");
            await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                    .until(() -> RecordingSinkP.recorded(published).size() >= expected.size());
            Thread.sleep(1_000);  // anything published twice would come now
            assertThat(RecordingSinkP.recorded(published)).isEqualTo(expected);
            assertThat(logs(List.of(0, 1))).contains("restarting as attempt 1 on members 0,1");
        }
    }

    /**
     * Numbers 0..n-1, number k into partition k % partitions, then one far-future number a partition
     * to close every window; fails if the broker did not take them all, with the end of its log.
     */
    private static void produce(String bootstrap, int partitions, long numbers, Path brokerLog) throws IOException {
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "linger.ms", 5),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long n = 0; n < numbers + partitions; n++) {
                int partition = (int) (n % partitions);
                long value = n < numbers ? n : numbers + 1_000_000 + partition;
                producer.send(new ProducerRecord<>(ClusterQueryDriver.KAFKA_TOPIC, partition, null, bytes(value)), (metadata, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            List<String> lines = Files.readAllLines(brokerLog);
            assertThat(failed.get()).as("a record the broker did not take; its log (%s) ends with:%n%s", brokerLog,
                    String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()))).isNull();
        }
    }

    private static byte[] bytes(long n) {
        return Long.toString(n).getBytes(StandardCharsets.UTF_8);
    }

    /** What "kafka-count" must publish for numbers 0..n-1: every window holding one of them, per key. */
    private static List<String> countsOf(long numbers) {
        long size = ClusterQueryDriver.PARAMETERS.windowMs();
        long slide = ClusterQueryDriver.PARAMETERS.slideMs();
        Map<List<Long>, Long> counts = new HashMap<>();
        for (long n = 0; n < numbers; n++) {
            long t = n / 100;
            for (long end = Math.floorDiv(t, slide) * slide + slide; end <= t + size; end += slide) {
                counts.merge(List.of(end, n % 1_000), 1L, Long::sum);
            }
        }
        return counts.entrySet().stream()
                .map(e -> new KeyedWindowResult<>(e.getKey().get(0) - size, e.getKey().get(0), e.getKey().get(1), e.getValue()).toString())
                .sorted().toList();
    }

    private static final Pattern WINDOW_RESULT = Pattern.compile("KeyedWindowResult\\[start=(-?\\d+), end=(-?\\d+), key=(\\d+), result=(\\d+)]");

    private static void assertNothingLost(List<String> output, List<String> expected) {
        Map<String, Long> highest = new HashMap<>();
        for (String line : output) {
            Matcher r = parsed(line);
            highest.merge(r.group(1) + "/" + r.group(2) + "/" + r.group(3), Long.parseLong(r.group(4)), Math::max);
        }
        for (String line : expected) {
            Matcher r = parsed(line);
            assertThat(highest.get(r.group(1) + "/" + r.group(2) + "/" + r.group(3))).as("count of %s", line).isNotNull()
                    .isGreaterThanOrEqualTo(Long.parseLong(r.group(4)));
        }
    }

    private static Matcher parsed(String line) {
        Matcher m = WINDOW_RESULT.matcher(line);
        assertThat(m.matches()).as("a keyed window result: %s", line).isTrue();
        return m;
    }

    @Test
    void q8OnThreeMembersGivesTheResultsOfOne() throws Exception {
        List<String> alone = ClusterQueryDriver.runAlone("q8", 200_000);
        assertThat(alone).isNotEmpty();
        assertThat(runOnThree("q8", 200_000, 0)).isEqualTo(alone);
    }

    @Test
    void aSlowMemberThrottlesItsSendersWithBoundedBuffers() throws Exception {
        long events = 600_000;
        List<String> results = runOnThree("flood", events, 20);
        assertThat(results).isEqualTo(ClusterQueryDriver.runAlone("flood", events));
        Map<String, Long> slow = metrics(2);
        for (int m = 0; m < 2; m++) {
            Map<String, Long> fast = metrics(m);
            assertThat(sum(fast, "to member 2", ".creditStalls")).as("credit stalls of member %d's sender to the slow member", m).isPositive();
            // The fast members' sources were held back by the slow one (500 000 items/s would need 1.2 s).
            assertThat(fast.get("source.maxLagNanos")).as("source lag on member %d", m).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(300));
            // The slow member delivers at most 5 000 items per 100 ms period (20 us each), so the window it
            // grants stays near 3 x 5 000; without flow control it would buffer most of the ~67 000 items each other member sends it.
            assertThat(sum(slow, "from member " + m, ".peakBufferedEntries")).as("entries buffered at the slow member from member %d", m)
                    .isPositive().isLessThanOrEqualTo(20_000);
        }
    }

    private String serve(int index, String members, Path secret, int failureTimeoutMs) throws IOException {
        start("member-" + index, FourninesMember.class.getName(), "serve", "--index", Integer.toString(index), "--members", members,
                "--secret-file", secret.toString(), "--out", dir.resolve("out-" + index).toString(), "--failure-timeout-ms",
                Integer.toString(failureTimeoutMs), "--join-timeout-ms", "30000");
        Path out = dir.resolve("member-" + index + ".out");
        await().atMost(60, TimeUnit.SECONDS).until(() -> Files.readString(out).contains("\"type\":\"ready\""));
        String ready = Files.readString(out);
        int at = ready.indexOf("\"http\":\"") + 8;
        return ready.substring(at, ready.indexOf('"', at));
    }

    private static HttpResponse<String> call(String http, String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + http + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Starts `serve` members 0..n-1 side by side; returns their API addresses. */
    private List<String> serveCluster(String members, int n, int timeoutMs) throws Exception {
        Path secret = secretFile(SECRET);
        List<Thread> starters = new ArrayList<>();
        String[] found = new String[n];
        for (int m = 0; m < n; m++) {
            int index = m;
            Thread t = new Thread(() -> {
                try {
                    found[index] = serve(index, members, secret, timeoutMs);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            t.start();
            starters.add(t);
        }
        for (Thread t : starters) {
            t.join();
        }
        return List.of(found);
    }

    /**
     * The member's side of {@code chaos}: a bounded q5 job with the runner's time origin, every
     * result recorded, exactly-once. It ends by itself, and the published results are, line for
     * line, what the engine-free reference computes over the events {@code nexmark generate} makes
     * from that origin.
     */
    @Test
    void aCheckedRunRecordsWhatTheReferenceComputesOverTheSameEvents() throws Exception {
        String members = freeAddresses(3);
        List<String> https = serveCluster(members, 3, 3_000);
        String token = ClusterSecret.of(SECRET, "test").apiToken();
        long events = 40_000;
        long rate = 20_000;
        long startMillis = System.currentTimeMillis() + 3_000;
        String job = "{\"name\":\"checked\",\"query\":{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":250},"
                + "\"load\":{\"rate\":" + rate + ",\"source\":\"in-process\",\"keys\":100,\"events\":" + events + "},"
                + "\"cluster\":{\"members\":3,\"threads\":1},\"guarantee\":\"exactly-once\",\"snapshot_interval_ms\":200,"
                + "\"warmup_s\":0,\"duration_s\":60,\"start_epoch_ns\":" + startMillis * 1_000_000 + ",\"record_results\":true}";
        HttpResponse<String> submitted = call(https.get(1), "POST", "/jobs", token, job);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = submitted.body().replaceAll("\\D", "");
        await().atMost(60, TimeUnit.SECONDS).until(() -> IntStream.range(0, 3).allMatch(m -> {
            try {
                String status = call(https.get(m), "GET", "/jobs/" + id, token, null).body();
                assertThat(status).as("member %d's job; its log: %s", m, log("member-" + m)).doesNotContain("failed");
                return status.contains("\"completed\"");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }));

        List<String> recorded = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            // Q5's last stage runs on member 0; a member without a sink instance has no folder.
            Path folder = dir.resolve("out-" + m).resolve("job-" + id).resolve("recorded");
            if (Files.isDirectory(folder)) {
                recorded.addAll(RecordingSinkP.recorded(folder));
            }
        }
        GeneratorConfig config = GeneratorConfig.defaults(GeneratorSpec.SEED).withRate(rate).withKeys(100).withBaseTime(startMillis);
        NexmarkGenerator generator = new NexmarkGenerator(config);
        List<Event> sequence = LongStream.range(0, events).mapToObj(generator::event).toList();
        List<String> expected = References.run("q5", sequence, QueryParameters.defaults().withWindow(1_000, 250)).stream()
                .map(ResultLines::of).sorted().toList();
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(recorded.stream().sorted().toList()).isEqualTo(expected);
    }

    @Test
    void aKilledMemberFailsTheJobWithinTheTimeoutNamingIt() throws Exception {
        String members = freeAddresses(3);
        int timeoutMs = 2_000;
        List<String> https = serveCluster(members, 3, timeoutMs);
        String token = ClusterSecret.of(SECRET, "test").apiToken();
        String job = "{\"name\":\"t\",\"query\":{\"name\":\"q5\",\"window_ms\":2000,\"slide_ms\":500},"
                + "\"load\":{\"rate\":5000,\"source\":\"in-process\",\"keys\":1000,\"partitions\":3},"
                + "\"cluster\":{\"members\":3,\"threads\":1},\"warmup_s\":1,\"duration_s\":60}";

        assertThat(call(https.get(1), "POST", "/jobs", null, job).statusCode()).isEqualTo(401);
        assertThat(call(https.get(1), "POST", "/jobs", "0".repeat(64), job).statusCode()).isEqualTo(401);
        assertThat(log("member-1")).contains("refused management call POST /jobs");
        HttpResponse<String> noEndpoint = call(https.get(1), "POST", "/jobs", token, job.replace("in-process", "kafka"));
        assertThat(noEndpoint.statusCode()).isEqualTo(400);
        assertThat(noEndpoint.body()).contains("load.source is kafka: the runner must name the broker and topic (kafka_endpoint");

        HttpResponse<String> submitted = call(https.get(1), "POST", "/jobs", token, job);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = submitted.body().replaceAll("\\D", "");
        await().atMost(30, TimeUnit.SECONDS).until(() -> {
            String s = call(https.get(0), "GET", "/jobs/" + id, token, null).body();
            assertThat(s).as("member 0's log: %s", log("member-0")).doesNotContain("failed");
            return s.contains("\"running\"");
        });
        // Windows close once every member's watermark has crossed the network: wait for the first.
        await().atMost(30, TimeUnit.SECONDS).until(() -> call(https.get(0), "GET", "/metrics", token, null).body()
                .contains("fournines_vertex_watermark_lag_seconds{job=\"" + id + "\",vertex=\"sliding-window\""));
        assertThat(call(https.get(0), "GET", "/metrics", token, null).body()).contains("fournines_network_total{job=\"" + id + "\"")
                .contains("fournines_vertex_samples_total{job=\"" + id + "\",vertex=\"sliding-window\",counter=\"sampledBusyMicros\"}");

        long killedAt = System.nanoTime();
        processes.get("member-2").destroyForcibly();
        await().atMost(timeoutMs + 5_000, TimeUnit.MILLISECONDS).pollInterval(50, TimeUnit.MILLISECONDS)
                .until(() -> call(https.get(0), "GET", "/jobs/" + id, token, null).body().contains("\"failed\""));
        long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
        String status = call(https.get(0), "GET", "/jobs/" + id, token, null).body();
        assertThat(status).contains("member 2 (" + members.split(",")[2] + ")");
        assertThat(detectedMillis).isLessThan(timeoutMs + 3_000);
        assertThat(log("member-0")).contains("lost").contains("member 2");
        // Member 1 fails its part on its own thread; its log line may come a moment after member 0's status.
        await().atMost(10, TimeUnit.SECONDS).until(() -> log("member-1").contains("the job failed"));
        assertThat(log("member-1")).contains("member 2");
    }

    /**
     * A member paused (SIGSTOP) past the failure timeout: the others restart the job without it.
     * When it runs again it must not take their silence for their loss and carry on alone (it
     * would restart the job by itself, beside them); it notices its own pause, leaves its part
     * without failing the job on the others, and joins again; the coordinator takes it back in
     * after the scale-out delay and the job completes on all three.
     */
    @Test
    void aMemberPausedPastTheFailureTimeoutLeavesItsPartAndIsTakenBackIn() throws Exception {
        String members = freeAddresses(3);
        List<String> https = serveCluster(members, 3, 2_000);
        String token = ClusterSecret.of(SECRET, "test").apiToken();
        String job = "{\"name\":\"t\",\"query\":{\"name\":\"q5\",\"window_ms\":2000,\"slide_ms\":500},"
                + "\"load\":{\"rate\":5000,\"source\":\"in-process\",\"keys\":1000,\"partitions\":3},"
                + "\"cluster\":{\"members\":3,\"threads\":1},\"guarantee\":\"exactly-once\",\"snapshot_interval_ms\":500,"
                + "\"warmup_s\":1,\"duration_s\":20}";
        HttpResponse<String> submitted = call(https.get(0), "POST", "/jobs", token, job);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = submitted.body().replaceAll("\\D", "");
        await().atMost(30, TimeUnit.SECONDS).until(() -> call(https.get(0), "GET", "/jobs/" + id, token, null).body().contains("\"running\""));
        Thread.sleep(2_000);  // a few snapshots committed
        assertSnapshotHistory(call(https.get(0), "GET", "/jobs/" + id + "/snapshots", token, null).body());

        long paused = processes.get("member-2").pid();
        signal("STOP", paused);
        await().atMost(15, TimeUnit.SECONDS).until(() -> logs("member-", List.of(0, 1)).contains("restarting as attempt 1 on members 0,1"));
        Thread.sleep(1_000);
        signal("CONT", paused);

        await().atMost(15, TimeUnit.SECONDS).until(() -> logs("member-", List.of(0, 1)).contains("restarting as attempt 2 on members 0,1,2"));
        assertThat(log("member-2")).contains("this member was paused for").contains("left job " + id)
                .doesNotContain("restarting as attempt");
        assertThat(logs("member-", List.of(0, 1))).contains("member 2 joined again");
        for (int m = 0; m < 3; m++) {
            String api = https.get(m);
            await().atMost(40, TimeUnit.SECONDS).until(() -> !call(api, "GET", "/jobs/" + id, token, null).body().contains("\"running\""));
            assertThat(call(api, "GET", "/jobs/" + id, token, null).body()).as("member %d's part", m).contains("\"completed\"");
        }
        assertThat(Files.readString(dir.resolve("out-2").resolve("job-" + id).resolve("joined-1").resolve("member.json")))
                .contains("\"attempt\" : 2");
    }

    /** The API's snapshot history: some, in order, each saved before it committed and holding state. */
    private static void assertSnapshotHistory(String body) throws IOException {
        JsonNode snapshots = new ObjectMapper().readTree(body).get("snapshots");
        assertThat(snapshots.size()).as(body).isPositive();
        long previous = 0;
        for (JsonNode s : snapshots) {
            assertThat(s.get("id").asLong()).as(body).isGreaterThan(previous);
            assertThat(s.get("saved_ms").asDouble()).as(body).isBetween(0.0, s.get("committed_ms").asDouble());
            assertThat(s.get("bytes").asLong()).as(body).isPositive();
            previous = s.get("id").asLong();
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }

    @Test
    void aFrozenMemberIsLostAfterTheFailureTimeout() throws Exception {
        String members = freeAddresses(2);
        int timeoutMs = 2_000;
        List<String> https = serveCluster(members, 2, timeoutMs);
        // SIGSTOP keeps its connection open: only the missing heartbeats can tell.
        long pid = processes.get("member-1").pid();
        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        long stoppedAt = System.nanoTime();
        try {
            await().atMost(timeoutMs + 5_000, TimeUnit.MILLISECONDS).pollInterval(50, TimeUnit.MILLISECONDS)
                    .until(() -> log("member-0").contains("lost no heartbeat from member 1"));
            long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
            assertThat(detectedMillis).isBetween((long) timeoutMs - 300, timeoutMs + 3_000L);
            assertThat(log("member-0")).contains("(failure timeout " + timeoutMs + " ms)");
            String token = ClusterSecret.of(SECRET, "test").apiToken();
            assertThat(call(https.get(0), "GET", "/metrics", token, null).body()).contains("fournines_member_up{member=\"1\"} 0");
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
        }
    }
}
