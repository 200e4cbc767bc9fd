package io.fournines.loadgen;

import io.fournines.kafkalocal.LocalKafka;
import io.fournines.loadgen.nexmark.NexmarkStream;
import io.fournines.nexmark.codec.EndOfStream;
import io.fournines.nexmark.codec.NexmarkRecords;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Bid;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The load generator's CLI against a real broker: what it sends, where, and with which times. */
class LoadRunTest {

    @TempDir
    static Path dir;
    static LocalKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        kafka = LocalKafka.start(dir.resolve("broker"));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        kafka.close();
    }

    @Test
    void sendsTheNexmarkSequenceOnScheduleOnePartitionPerThreadInOrder() throws Exception {
        int partitions = 4;
        int events = 6_000;
        double rate = 20_000;
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "nexmark", "--partitions", "" + partitions)).isZero();
        Path summary = dir.resolve("loadgen.json");
        assertThat(cli("run", "--bootstrap", kafka.bootstrap(), "--topic", "nexmark", "--stream", "nexmark", "--rate", "" + rate,
                "--producers", "2", "--events", "" + events, "--summary", summary.toString())).isZero();
        assertThat(Files.readString(summary)).contains("\"sent\" : " + events, "\"acked\" : " + events, "\"send_errors\" : 0");

        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(NexmarkStream.SEED).withRate((long) rate).withKeys(10_000));
        List<List<ConsumerRecord<byte[], byte[]>>> byPartition = readAll("nexmark", partitions, events);
        assertThat(byPartition.stream().mapToInt(List::size).sum()).isEqualTo(events);
        long t0 = NexmarkRecords.decode(byPartition.get(0).get(0).value()).scheduledEpochNanos();
        for (int p = 0; p < partitions; p++) {
            List<ConsumerRecord<byte[], byte[]>> records = byPartition.get(p);
            for (int k = 0; k < records.size(); k++) {
                long i = p + (long) k * partitions;  // event i goes to partition i % P, in order
                NexmarkRecords.ScheduledEvent e = NexmarkRecords.decode(records.get(k).value());
                assertThat(e.scheduledEpochNanos() - t0).as("event %d is due at t0 + i/rate", i).isEqualTo((long) (i * (1e9 / rate)));
                assertThat(e.event()).isEqualTo(generator.event(i, Math.floorDiv(e.scheduledEpochNanos(), 1_000_000L)));
                if (e.event() instanceof Bid bid) {
                    assertThat(ByteBuffer.wrap(records.get(k).key()).getLong()).as("bids are keyed by auction").isEqualTo(bid.auction());
                }
            }
        }
    }

    /** t0 long past: every event is overdue at once, so 3 000 events at 1 000/s take well under a second. */
    @Test
    void aBoundedLoadOnAGivenScheduleIsThatSchedulesEventsThenTheEndOfEveryPartition() throws Exception {
        int partitions = 4;
        int events = 3_000;
        double rate = 1_000;
        long t0Millis = 1_700_000_000_123L;
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "bounded", "--partitions", "" + partitions)).isZero();
        Path summary = dir.resolve("bounded.json");
        assertThat(cli("run", "--bootstrap", kafka.bootstrap(), "--topic", "bounded", "--stream", "nexmark", "--rate", "" + rate,
                "--producers", "2", "--events", "" + events, "--start-epoch-ms", "" + t0Millis, "--end-of-stream",
                "--summary", summary.toString())).isZero();
        assertThat(Files.readString(summary)).contains("\"sent\" : " + events, "\"partitions_ended\" : " + partitions,
                "\"start_epoch_ns\" : " + t0Millis * 1_000_000L);

        assertTheBoundedSchedule("bounded", partitions, events, rate, t0Millis);
    }

    @Test
    void loadGeneratorsSharingOneScheduleSendEachEventOnceAndEndTheirOwnPartitions() throws Exception {
        int partitions = 4;
        int events = 3_000;
        double rate = 1_000;
        long t0Millis = 1_700_000_000_456L;
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "shared", "--partitions", "" + partitions)).isZero();
        for (int k = 1; k <= 2; k++) {
            Path summary = dir.resolve("shared-" + k + ".json");
            assertThat(cli("run", "--bootstrap", kafka.bootstrap(), "--topic", "shared", "--stream", "nexmark", "--rate", "" + rate,
                    "--producers", "2", "--share", k + "/2", "--events", "" + events, "--start-epoch-ms", "" + t0Millis, "--end-of-stream",
                    "--summary", summary.toString())).isZero();
            assertThat(Files.readString(summary)).contains("\"sent\" : " + events / 2, "\"partitions_ended\" : " + partitions / 2,
                    "\"share\" : \"" + k + "/2\"", "\"target_rate\" : " + rate / 2);
        }
        assertTheBoundedSchedule("shared", partitions, events, rate, t0Millis);
    }

    @Test
    void aShareOfAScheduleWithoutItsStartOrOutOfRangeIsRefused() {
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "unshared", "--partitions", "2")).isZero();
        for (String[] args : List.of(new String[] {"--share", "1/2"}, new String[] {"--share", "3/2", "--start-epoch-ms", "1"},
                new String[] {"--share", "0/1"}, new String[] {"--share", "half"})) {
            List<String> command = new ArrayList<>(List.of("run", "--bootstrap", kafka.bootstrap(), "--topic", "unshared", "--stream", "trades",
                    "--rate", "100", "--events", "10"));
            command.addAll(List.of(args));
            assertThat(cli(command.toArray(String[]::new))).as(String.join(" ", args)).isEqualTo(2);
        }
    }

    /** The topic holds events 0 .. events-1 of the schedule from t0, event i in partition i % P in order, then each partition's end. */
    private static void assertTheBoundedSchedule(String topic, int partitions, int events, double rate, long t0Millis) {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(NexmarkStream.SEED).withRate((long) rate).withKeys(10_000));
        List<List<ConsumerRecord<byte[], byte[]>>> byPartition = readAll(topic, partitions, events + partitions);
        for (int p = 0; p < partitions; p++) {
            List<ConsumerRecord<byte[], byte[]>> records = byPartition.get(p);
            assertThat(records).hasSize(events / partitions + 1);
            for (int k = 0; k < records.size() - 1; k++) {
                long i = p + (long) k * partitions;
                long scheduled = t0Millis * 1_000_000L + (long) (i * (1e9 / rate));
                NexmarkRecords.ScheduledEvent e = NexmarkRecords.decode(records.get(k).value());
                assertThat(e.scheduledEpochNanos()).isEqualTo(scheduled);
                assertThat(e.event()).isEqualTo(generator.event(i, Math.floorDiv(scheduled, 1_000_000L)));
                assertThat(records.get(k).headers().lastHeader(EndOfStream.HEADER)).isNull();
            }
            assertThat(records.get(records.size() - 1).headers().lastHeader(EndOfStream.HEADER)).as("partition %d ends", p).isNotNull();
        }
    }

    @Test
    void readTopicCommittedSeesOnlyCommittedTransactionsAndNamesAnOpenOneHoldingRecordsBack() throws Exception {
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "txns", "--partitions", "2")).isZero();
        try (KafkaProducer<byte[], byte[]> done = transactional("done"); KafkaProducer<byte[], byte[]> open = transactional("open")) {
            send(done, 0, "committed-1", "committed-2");
            done.commitTransaction();
            send(done, 1, "aborted");
            done.flush();  // written, then aborted (unflushed, the abort would drop it unsent)
            done.abortTransaction();
            send(open, 1, "open");
            open.flush();
            send(done, 0, "committed-3");
            done.commitTransaction();

            Path held = dir.resolve("held.txt");
            assertThat(cli("read-topic", "--bootstrap", kafka.bootstrap(), "--topic", "txns", "--committed", "--stable-s", "1",
                    "--out", held.toString())).as("an open transaction holds records back").isEqualTo(1);
            assertThat(Files.readAllLines(held)).containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
            Path everything = dir.resolve("all.txt");
            assertThat(cli("read-topic", "--bootstrap", kafka.bootstrap(), "--topic", "txns", "--out", everything.toString())).isZero();
            assertThat(Files.readAllLines(everything)).containsExactlyInAnyOrder("committed-1", "committed-2", "aborted", "open", "committed-3");

            open.commitTransaction();
            Path committed = dir.resolve("committed.txt");
            assertThat(cli("read-topic", "--bootstrap", kafka.bootstrap(), "--topic", "txns", "--committed", "--out", committed.toString())).isZero();
            assertThat(Files.readAllLines(committed)).containsExactlyInAnyOrder("committed-1", "committed-2", "open", "committed-3");
        }
        assertThat(cli("read-topic", "--bootstrap", kafka.bootstrap(), "--topic", "no-such-topic", "--out", dir.resolve("none.txt").toString()))
                .isEqualTo(2);
    }

    private static KafkaProducer<byte[], byte[]> transactional(String id) {
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrap(), "transactional.id", id),
                new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, int partition, String... values) {
        producer.beginTransaction();
        for (String v : values) {
            producer.send(new ProducerRecord<>("txns", partition, null, v.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void refusesAPartitionCountThatTwoThreadsWouldShare() {
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "three", "--partitions", "3")).isZero();
        assertThat(cli("run", "--bootstrap", kafka.bootstrap(), "--topic", "three", "--stream", "trades", "--rate", "100",
                "--producers", "2", "--events", "10")).isEqualTo(2);
    }

    @Test
    void aMissingTopicIsRefusedInSeconds() {
        assertThat(cli("run", "--bootstrap", kafka.bootstrap(), "--topic", "missing", "--stream", "trades", "--rate", "100",
                "--events", "10", "--producer-config", "max.block.ms=1000")).isEqualTo(2);
    }

    @Test
    void moreReplicasThanBrokersAreWaitedForThenRefused() {
        long start = System.nanoTime();
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "replicated", "--partitions", "1",
                "--replication-factor", "2", "--wait-s", "2")).isEqualTo(1);
        assertThat(System.nanoTime() - start).as("waited for a second broker").isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(2));
    }

    @Test
    void anExistingTopicIsNotSilentlyReused() {
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "twice", "--partitions", "1")).isZero();
        assertThat(cli("create-topic", "--bootstrap", kafka.bootstrap(), "--topic", "twice", "--partitions", "1")).isEqualTo(1);
    }

    private static int cli(String... args) {
        return LoadGenCli.commandLine(false).execute(args);
    }

    private static List<List<ConsumerRecord<byte[], byte[]>>> readAll(String topic, int partitions, int n) {
        List<List<ConsumerRecord<byte[], byte[]>>> byPartition = new ArrayList<>();
        IntStream.range(0, partitions).forEach(p -> byPartition.add(new ArrayList<>()));
        try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrap(), "auto.offset.reset", "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList());
            int read = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (read < n && System.nanoTime() < until) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    byPartition.get(r.partition()).add(r);
                    read++;
                }
            }
        }
        return byPartition;
    }
}
