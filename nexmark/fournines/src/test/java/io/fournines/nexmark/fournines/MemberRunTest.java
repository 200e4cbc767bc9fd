package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

/** The member driver run in-process for a few seconds: every file it promises exists and parses. */
class MemberRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String scenario(String query) {
        return "{\"name\":\"t\",\"query\":" + query + ",\"load\":{\"rate\":20000,\"source\":\"in-process\",\"keys\":1000,\"partitions\":2},"
                + "\"cluster\":{\"members\":1,\"threads\":2,\"jvm_opts\":[],\"gc\":\"g1\"},\"guarantee\":\"none\",\"mode\":\"single\",\"faults\":[],"
                + "\"warmup_s\":1,\"duration_s\":2,\"extra_field\":true}";
    }

    /** A result file on a full disk fails the run naming it, and the member never says done. */
    @ParameterizedTest
    @ValueSource(strings = {"latency.hlog", "throughput.csv", "load.csv", "member.json"})
    void aResultFileThatCannotBeWrittenFailsTheRunNamingIt(String name) throws IOException {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
        Files.createSymbolicLink(dir.resolve(name), full);
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        List<String> lines;
        try {
            lines = InProcessMember.run(dir, scenario("{\"name\":\"q1\"}"), 1);
        } finally {
            System.setErr(original);
        }
        assertThat(lines).doesNotContain("{\"type\":\"done\"}");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("cannot write " + dir.resolve(name)).contains("No space left on device");
    }

    @Test
    void q1WritesEveryFileAndProgress() throws IOException {
        List<String> lines = InProcessMember.run(dir, scenario("{\"name\":\"q1\"}"), 0);
        assertProgress(lines);
        assertFiles(false);
    }

    @Test
    void q5WritesEveryFileIncludingCompletion() throws IOException {
        List<String> lines = InProcessMember.run(dir, scenario("{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}"), 0);
        assertProgress(lines);
        assertFiles(true);
    }

    /** The Jet team's trades made in-process, the load generator's ticker count, without the broker. */
    @Test
    void tradesInProcessWritesEveryFile() throws IOException {
        List<String> lines = InProcessMember.run(dir, scenario("{\"name\":\"trades\",\"window_ms\":1000,\"slide_ms\":100}"), 0);
        assertProgress(lines);
        assertFiles(true);
    }

    /** In micro-batch, each stage of each batch is a row of batches.csv: 3 s in 100 ms batches, Q5's stages in order. */
    @Test
    void q5InMicroBatchesWritesItsBatches() throws IOException {
        String q5 = scenario("{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}");
        List<String> lines = InProcessMember.run(dir, q5.replace("\"extra_field\":true", "\"execution\":\"micro-batch\",\"batch_ms\":100"), 0);
        assertProgress(lines);
        assertFiles(true);
        List<String> rows = Files.readAllLines(dir.resolve(FourninesEngine.BATCHES_FILE));
        assertThat(rows.get(0)).isEqualTo("batch,stage,launched_us,started_us,finished_us,done_us,group_size");
        List<long[]> values = rows.subList(1, rows.size()).stream().map(r -> java.util.Arrays.stream(r.split(",")).mapToLong(Long::parseLong).toArray()).toList();
        long stages = values.stream().mapToLong(v -> v[1]).max().orElseThrow() + 1;
        assertThat(values.size() / stages).as("batches of 100 ms in a 3 s run").isBetween(20L, 32L);
        for (int i = 0; i < values.size(); i++) {
            long[] v = values.get(i);
            assertThat(new long[] {v[0], v[1]}).containsExactly(i / stages, i % stages);
            assertThat(v[2]).as("launched ≤ started").isLessThanOrEqualTo(v[3]);
            assertThat(v[3]).as("started ≤ finished").isLessThanOrEqualTo(v[4]);
            assertThat(v[4]).as("finished ≤ done").isLessThanOrEqualTo(v[5]);
            assertThat(v[6]).as("micro-batch's group").isOne();
        }
    }

    /** With snapshots every 200 ms, snapshots.csv has each committed one in order, on the run's timeline. */
    @Test
    void q5WithSnapshotsWritesTheirTimeline() throws IOException {
        String q5 = scenario("{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}")
                .replace("\"guarantee\":\"none\"", "\"guarantee\":\"exactly-once\",\"snapshot_interval_ms\":200");
        List<String> lines = InProcessMember.run(dir, q5, 0);
        assertProgress(lines);
        List<String> rows = Files.readAllLines(dir.resolve("snapshots.csv"));
        assertThat(rows.get(0)).isEqualTo("id,started_s,saved_s,committed_s,bytes");
        assertThat(rows.size() - 1).as("snapshots every 200 ms of a 3 s run").isBetween(4, 15);
        double lastCommit = 0;
        for (int i = 1; i < rows.size(); i++) {
            String[] v = rows.get(i).split(",");
            assertThat(Long.parseLong(v[0])).as("ids in order").isEqualTo(i);
            double started = Double.parseDouble(v[1]);
            double saved = Double.parseDouble(v[2]);
            double committed = Double.parseDouble(v[3]);
            assertThat(started).as("after the last commit, within the run").isBetween(lastCommit, 3.5);
            assertThat(saved).isBetween(started, committed);
            assertThat(Long.parseLong(v[4])).as("bytes").isPositive();
            lastCommit = committed;
        }
    }

    @Test
    void aMissingOrUnsupportedFieldIsNamed() throws IOException {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            InProcessMember.run(dir, scenario("{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":300}"), 2);
            InProcessMember.run(dir, scenario("{\"name\":\"q1\"}").replace("\"rate\":20000,", ""), 2);
            InProcessMember.run(dir, scenario("{\"name\":\"sums\"}").replace("\"source\":\"in-process\"", "\"source\":\"kafka\""), 2);
            InProcessMember.run(dir, scenario("{\"name\":\"q1\"}").replace("\"partitions\":2", "\"partitions\":8"), 2);
        } finally {
            System.setErr(original);
        }
        assertThat(stderr.toString(StandardCharsets.UTF_8))
                .contains("query.window_ms: must be a multiple of query.slide_ms (300); is 1000")
                .contains("load.rate: missing")
                .contains("load.source: query sums reads \"in-process\"; is \"kafka\"")
                .contains("load.partitions: the in-process generator runs one slice per worker thread");
    }

    private static void assertProgress(List<String> lines) throws IOException {
        assertThat(lines).last().isEqualTo("{\"type\":\"done\"}");
        List<String> progress = lines.subList(0, lines.size() - 1);
        assertThat(progress).hasSizeBetween(2, 4);
        for (String line : progress) {
            JsonNode p = JSON.readTree(line);
            assertThat(p.get("type").asText()).isEqualTo("progress");
            assertThat(p.get("phase").asText()).isIn("warmup", "measure");
            assertThat(p.get("elapsed_s").asDouble()).isPositive();
            assertThat(p.get("target_rate").asLong()).isEqualTo(20_000);
            assertThat(p.get("achieved_rate").asDouble()).isGreaterThanOrEqualTo(0);
            assertThat(p.get("behind_ms").asDouble()).isGreaterThanOrEqualTo(0);
            assertThat(p.get("p99_us").isNull() || p.get("p99_us").asLong() >= 0).isTrue();
            assertThat(p.get("p9999_us").isNull() || p.get("p9999_us").asLong() >= 0).isTrue();
        }
        assertThat(JSON.readTree(progress.get(0)).get("phase").asText()).isEqualTo("warmup");
        assertThat(JSON.readTree(progress.get(progress.size() - 1)).get("phase").asText()).isEqualTo("measure");
    }

    /** Events/s between the last sample before the warm-up's end and the last sample (RunSampler's rule). */
    private static double rateAfterWarmup(List<String> load, double warmupSeconds) {
        double[] time = load.stream().skip(1).mapToDouble(row -> Double.parseDouble(row.split(",")[0])).toArray();
        long[] generated = load.stream().skip(1).mapToLong(row -> Long.parseLong(row.split(",")[1])).toArray();
        int first = 0;
        while (first + 1 < time.length && time[first] < warmupSeconds - 1e-3) {
            first++;
        }
        int last = time.length - 1;
        return (generated[last] - generated[first]) / (time[last] - time[first]);
    }

    /** The job's graph, and per second a row per vertex of it, the source's counting what it sent and its samples. */
    private void assertVertexFiles() throws IOException {
        JsonNode graph = JSON.readTree(dir.resolve("graph.json").toFile());
        List<String> vertices = new ArrayList<>();
        graph.get("vertices").forEach(v -> vertices.add(v.get("name").asText()));
        assertThat(vertices).isNotEmpty();
        graph.get("edges").forEach(e -> assertThat(vertices).contains(e.get("from").asText(), e.get("to").asText()));
        List<String> rows = Files.readAllLines(dir.resolve("vertices.csv"));
        assertThat(rows.get(0)).isEqualTo("time_s,vertex,items_in,items_out,sampled_us,busy_us,backpressured_us,queued_item_us,queue_room_us");
        double lastTime = Double.parseDouble(rows.get(rows.size() - 1).split(",")[0]);
        List<String[]> last = rows.stream().skip(1).map(MemberRunTest::csvFields).filter(r -> Double.parseDouble(r[0]) == lastTime).toList();
        assertThat(last).extracting(r -> r[1]).containsExactlyElementsOf(vertices);
        String source = vertices.get(0);
        assertThat(last).filteredOn(r -> r[1].equals(source)).singleElement()
                        .satisfies(r -> assertThat(Long.parseLong(r[3])).as("the source's items out").isPositive())
                        .satisfies(r -> assertThat(Long.parseLong(r[4])).as("the time the source's samples stand for").isPositive());
    }

    /** A CSV row's fields, a quoted one (a vertex name with commas) unquoted. */
    private static String[] csvFields(String row) {
        return java.util.regex.Pattern.compile("\"([^\"]*)\"|([^,]+)").matcher(row).results()
                .map(m -> m.group(1) != null ? m.group(1) : m.group(2)).toArray(String[]::new);
    }

    private void assertFiles(boolean windowed) throws IOException {
        long latencies = InProcessMember.valuesIn(dir.resolve("latency.hlog"));
        assertThat(latencies).isPositive();
        if (windowed) {
            assertThat(InProcessMember.valuesIn(dir.resolve("completion.hlog"))).isPositive();
        } else {
            assertThat(dir.resolve("completion.hlog")).doesNotExist();
        }
        List<String> throughput = Files.readAllLines(dir.resolve("throughput.csv"));
        assertThat(throughput.get(0)).isEqualTo("time_s,events,events_per_s");
        assertThat(throughput).hasSizeBetween(3, 5);
        long lastEvents = Long.parseLong(throughput.get(throughput.size() - 1).split(",")[1]);
        assertThat(lastEvents).isBetween(40_000L, 70_000L);
        List<String> load = Files.readAllLines(dir.resolve("load.csv"));
        assertThat(load.get(0)).isEqualTo("time_s,generated,behind_ms");
        assertThat(load).hasSameSizeAs(throughput);
        assertThat(Long.parseLong(load.get(load.size() - 1).split(",")[1])).isGreaterThanOrEqualTo(lastEvents);
        List<String> cpu = Files.readAllLines(dir.resolve("cpu.csv"));
        assertThat(cpu.get(0)).isEqualTo("time_s,cpu_seconds");
        assertThat(Double.parseDouble(cpu.get(cpu.size() - 1).split(",")[1])).isPositive();
        // Linux: the host's stolen CPU beside the samples above.
        List<String> host = Files.readAllLines(dir.resolve("host.csv"));
        assertThat(host.get(0)).isEqualTo("time_s,steal_seconds");
        assertThat(host).hasSameSizeAs(throughput);
        assertThat(Double.parseDouble(host.get(host.size() - 1).split(",")[1])).isNotNegative();
        assertVertexFiles();
        JsonNode member = JSON.readTree(dir.resolve("member.json").toFile());
        for (String field : List.of("events_generated", "events_processed", "late_events", "dropped_events")) {
            assertThat(member.get(field).isIntegralNumber()).as(field).isTrue();
        }
        assertThat(member.get("events_generated").asLong()).isGreaterThanOrEqualTo(lastEvents);
        // What the generator sent over the measurement, as load.csv's samples say: a generator behind its
        // schedule at the warm-up's end (a loaded machine) catches up in it, so the rate is not the target's.
        assertThat(member.get("achieved_rate").asDouble()).isCloseTo(rateAfterWarmup(load, 1.0), withinPercentage(1));
        assertThat(member.get("started_at").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(member.get("jdk").asText()).isNotEmpty();
        assertThat(member.get("gc").asText()).isNotEmpty();
        assertThat(member.get("jvm_flags").isArray()).isTrue();
        assertThat(member.get("hlog_values_written").get("latency.hlog").asLong()).isEqualTo(latencies);
    }
}
