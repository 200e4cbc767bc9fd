package io.fournines.loadgen;

import io.fournines.kafkalocal.LocalKafka;
import io.fournines.loadgen.nexmark.NexmarkStream;
import io.fournines.nexmark.codec.NexmarkRecords;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Bid;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
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
