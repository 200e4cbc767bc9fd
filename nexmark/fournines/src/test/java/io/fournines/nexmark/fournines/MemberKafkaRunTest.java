package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.kafkalocal.LocalKafka;
import io.fournines.loadgen.EventStream;
import io.fournines.loadgen.nexmark.NexmarkStream;
import io.fournines.loadgen.trades.TradeStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The member with load.source kafka, against a real broker fed in real time while it runs. */
class MemberKafkaRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RATE = 10_000;

    @TempDir
    static Path brokerDir;
    static LocalKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        kafka = LocalKafka.start(brokerDir);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        kafka.close();
    }

    @Test
    void q5FromKafkaMeasuresWindowsAndSetsAsideMalformedRecords() throws Exception {
        JsonNode member = runFed("q5-topic", "{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}", new NexmarkStream(RATE, 1000, 0), NO_GUARANTEE);
        assertThat(InProcessMember.valuesIn(dir.resolve("latency.hlog"))).isPositive();
        assertThat(InProcessMember.valuesIn(dir.resolve("completion.hlog"))).isPositive();
        assertThat(member.get("source").asText()).isEqualTo("kafka");
        assertThat(member.get("malformed_records").asLong()).isEqualTo(2);
        assertThat(Files.readAllLines(dir.resolve(KafkaLoad.DEAD_LETTERS))).hasSize(2);
        assertThat(member.get("events_generated").asLong()).isGreaterThan(RATE * 2L);
        assertThat(member.get("late_events").asLong()).as("one thread per partition: event time never goes back").isZero();
    }

    @Test
    void withAGuaranteeTheSnapshotsHoldTheKafkaOffsets() throws Exception {
        JsonNode member = runFed("q5-eo-topic", "{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}", new NexmarkStream(RATE, 1000, 0),
                "\"guarantee\":\"exactly-once\",\"snapshot_interval_ms\":200");
        assertThat(member.get("snapshots_committed").asLong()).isPositive();
        assertThat(member.get("kafka_snapshot_partitions").asInt()).isEqualTo(2);
        assertThat(member.get("kafka_snapshot_offsets_total").asLong()).isPositive()
                .isLessThanOrEqualTo(member.get("events_generated").asLong() + member.get("malformed_records").asLong());
    }

    @Test
    void tradesFromKafkaMeasuresWindows() throws Exception {
        // 500 tickers, not the blog's 50 000: every 20 ms slide emits a result per ticker, which a
        // loaded 2-core machine cannot do within this 3 s run; what is tested is that trades are measured.
        JsonNode member = runFed("trades-topic", "{\"name\":\"trades\",\"window_ms\":2000,\"slide_ms\":20}", new TradeStream(500), NO_GUARANTEE);
        assertThat(InProcessMember.valuesIn(dir.resolve("latency.hlog"))).isPositive();
        assertThat(member.get("query").asText()).isEqualTo("trades");
    }

    @Test
    void kafkaLoadNeedsTheBrokerAndTopic() throws Exception {
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, scenario("{\"name\":\"q5\",\"window_ms\":1000,\"slide_ms\":100}", NO_GUARANTEE));
        assertThat(FourninesMember.commandLine().execute("run", "--scenario", file.toString(), "--out", dir.toString())).isEqualTo(2);
    }

    private static final String NO_GUARANTEE = "\"guarantee\":\"none\"";

    /** {@code guarantee}: the scenario's guarantee field(s), as JSON members. */
    private static String scenario(String query, String guarantee) {
        return "{\"name\":\"t\",\"query\":" + query + ",\"load\":{\"rate\":" + RATE + ",\"source\":\"kafka\",\"keys\":1000,\"partitions\":2},"
                + "\"cluster\":{\"members\":1,\"threads\":2,\"jvm_opts\":[],\"gc\":\"g1\"}," + guarantee + ",\"mode\":\"single\",\"faults\":[],"
                + "\"warmup_s\":1,\"duration_s\":2}";
    }

    /** Runs the member for 3 s while a thread sends the stream at RATE, in real time, plus two malformed records. */
    private JsonNode runFed(String topic, String query, EventStream stream, String guarantee) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread feeder = new Thread(() -> feed(topic, stream, stop));
        feeder.start();
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, scenario(query, guarantee));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int exit;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            exit = FourninesMember.commandLine().execute("run", "--scenario", file.toString(), "--out", dir.toString(),
                    "--kafka-bootstrap", kafka.bootstrap(), "--kafka-topic", topic);
        } finally {
            System.setOut(original);
            stop.set(true);
            feeder.join();
        }
        assertThat(exit).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8).lines().toList()).last().isEqualTo("{\"type\":\"done\"}");
        return JSON.readTree(dir.resolve("member.json").toFile());
    }

    private static void feed(String topic, EventStream stream, AtomicBoolean stop) {
        try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrap(), "linger.ms", 1),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {9, 9, 9}));
            producer.send(new ProducerRecord<>(topic, 1, null, null));
            long t0 = System.nanoTime();
            Instant start = Instant.now();
            long t0Epoch = start.getEpochSecond() * 1_000_000_000L + start.getNano();
            for (long i = 0; !stop.get(); i++) {
                long due = t0 + i * 1_000_000_000L / RATE;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                // Partition i % 2 from this one thread: in schedule order within each partition.
                producer.send(stream.record(topic, (int) (i % 2), i, t0Epoch + (due - t0)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
