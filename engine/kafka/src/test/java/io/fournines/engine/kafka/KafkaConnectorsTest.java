package io.fournines.engine.kafka;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The Kafka source and sink against a real broker (one for the whole class: it takes seconds to start). */
class KafkaConnectorsTest extends BrokerAndEngineTest {

    @Test
    void everyRecordMakesTheRoundTripThroughTheEngineExactlyOnceWhenNothingFails() throws Exception {
        int n = 20_000;
        createTopic("round-in", 4);
        createTopic("round-out", 3);
        produce("round-in", 4, LongStream.range(0, n));
        Pipeline p = Pipeline.create();
        p.readFrom(KafkaSources.kafka(clientProps(), "round-in", KafkaConnectorsTest::decodeLong, options()))
         .withoutTimestamps()
         .map(v -> v * 2)
         .writeTo(KafkaSinks.kafka(clientProps(), (Long v) -> new ProducerRecord<>("round-out", null, encodeLong(v))));
        Job job = engine.newJob(p);
        List<Long> out = readAtLeast("round-out", 3, n);
        job.cancel();
        // Exact: nothing lost, nothing twice, and nothing more arriving.
        assertThat(out).hasSize(n);
        assertThat(new HashSet<>(out)).isEqualTo(LongStream.range(0, n).map(v -> v * 2).boxed().collect(Collectors.toSet()));
        assertThat(readAtLeast("round-out", 3, n)).hasSize(n);
    }

    @Test
    void aRestartedSourceResumesFromTheOffsetsItWasGiven() throws Exception {
        createTopic("resume", 3);
        produce("resume", 3, LongStream.range(0, 300));
        Map<Integer, Long> offsets = new ConcurrentHashMap<>();
        List<Long> first = new CopyOnWriteArrayList<>();
        Job job1 = engine.newJob(pipeline("resume", options().withOffsetsListener((instance, o) -> offsets.putAll(o)), first));
        await().atMost(Duration.ofSeconds(30)).until(() -> first.size() >= 300);
        job1.cancel();
        await().atMost(Duration.ofSeconds(10)).until(job1::isDone);
        assertThat(offsets).containsOnlyKeys(0, 1, 2);
        assertThat(offsets.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(300);

        produce("resume", 3, LongStream.range(300, 500));
        List<Long> second = new CopyOnWriteArrayList<>();
        Job job2 = engine.newJob(pipeline("resume", options().withStartOffsets(offsets), second));
        await().atMost(Duration.ofSeconds(30)).until(() -> second.size() >= 200);
        Thread.sleep(500);  // anything read twice would arrive now
        job2.cancel();
        assertThat(second).hasSize(200).containsExactlyInAnyOrderElementsOf(LongStream.range(300, 500).boxed().toList());
    }

    /** One partition for two source instances: the one without a partition ends at once. */
    @ParameterizedTest(name = "{0} partition(s)")
    @ValueSource(ints = {1, 3})
    void aBoundedTopicEndsTheJobAtEachPartitionsEndOfStreamRecord(int partitions) throws Exception {
        String topic = "bounded-" + partitions;
        createTopic(topic, partitions);
        produce(topic, partitions, LongStream.range(0, 300));
        try (var producer = producer()) {
            for (int p = 0; p < partitions; p++) {
                producer.send(new ProducerRecord<>(topic, p, null, null, new byte[0], new RecordHeaders().add(END, new byte[0]))).get();
            }
            producer.send(new ProducerRecord<>(topic, 0, null, encodeLong(-1))).get();  // after its end: never read
        }
        List<Long> read = new CopyOnWriteArrayList<>();
        Job job = engine.newJob(pipeline(topic, options().endingAt(r -> r.headers().lastHeader(END) != null), read));
        job.future().get(30, TimeUnit.SECONDS);
        assertThat(read).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 300).boxed().toList());
        assertThat(malformed(job)).isZero();
    }

    private static final String END = "end-of-stream";

    /**
     * In micro-batch and group execution a record belongs to the batch its poll falls in: it reaches
     * the job only once that batch's end has passed (so never before the first batch end after it was
     * produced), and every record comes, once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"micro-batch", "group"})
    void recordsAreReadInTheBatchTheyArrivedIn(String model) throws Exception {
        String topic = "batched-" + model;
        int n = 200;
        long batchMs = 100;
        createTopic(topic, 2);
        ExecutionModel execution = model.equals("group") ? ExecutionModel.group(Duration.ofMillis(batchMs), 3)
                : ExecutionModel.microBatch(Duration.ofMillis(batchMs));
        List<long[]> seen = new CopyOnWriteArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(KafkaSources.kafka(clientProps(), topic, KafkaConnectorsTest::decodeLong, options().endingAt(r -> r.headers().lastHeader(END) != null)))
         .withoutTimestamps()
         .map(producedMs -> new long[] {producedMs, System.currentTimeMillis()})
         .writeTo(Sinks.list(seen));
        Job job = engine.newJob(p, JobConfig.defaults().executing(execution));
        try (var producer = producer()) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, null, encodeLong(System.currentTimeMillis()))).get();
                Thread.sleep(3);
            }
            for (int partition = 0; partition < 2; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, null, null, new byte[0], new RecordHeaders().add(END, new byte[0]))).get();
            }
        }
        job.future().get(30, TimeUnit.SECONDS);
        assertThat(seen).hasSize(n);
        // 1 ms of slack: the engine's epoch clock and the JVM's wall clock may round apart.
        assertThat(seen).allSatisfy(r -> assertThat(r[1]).as("seen at, produced at %d", r[0]).isGreaterThanOrEqualTo((r[0] / batchMs + 1) * batchMs - 1));
    }

    /**
     * Partition 1 has nothing for longer than the idle timeout while partition 0 moves the event time
     * on; then its records come, older. On a bounded topic it was never idle: they are not late.
     */
    @Test
    void aBoundedTopicsPartitionThatIsSilentAtFirstIsWaitedFor() throws Exception {
        String topic = "late-start";
        createTopic(topic, 2);
        KafkaSourceOptions options = new KafkaSourceOptions(Map.of(), Duration.ofMillis(100), Duration.ofMillis(1), Duration.ofSeconds(30),
                options().deadLetters(), (instance, offsets) -> { }, r -> r.headers().lastHeader(END) != null);
        List<Long> counts = new CopyOnWriteArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(KafkaSources.kafka(clientProps(), topic, KafkaConnectorsTest::decodeLong, options))
         .withTimestamps(v -> v, 0)
         .window(WindowDefinition.tumbling(100))
         .aggregate(AggregateOperations.counting())
         .map(WindowResult::result)
         .writeTo(Sinks.list(counts));
        try (var producer = producer()) {
            for (long t = 1_000; t < 2_000; t++) {
                producer.send(new ProducerRecord<>(topic, 0, null, encodeLong(t)));
            }
            producer.flush();
            Job job = engine.newJob(p);
            Thread.sleep(1_000);  // ten idle timeouts with nothing on partition 1
            for (long t = 0; t < 1_000; t++) {
                producer.send(new ProducerRecord<>(topic, 1, null, encodeLong(t)));
            }
            for (int partition = 0; partition < 2; partition++) {
                producer.send(new ProducerRecord<>(topic, partition, null, null, new byte[0], new RecordHeaders().add(END, new byte[0])));
            }
            producer.flush();
            job.future().get(30, TimeUnit.SECONDS);
        }
        assertThat(counts.stream().mapToLong(Long::longValue).sum()).as("records counted in the windows").isEqualTo(2_000);
    }

    @Test
    void malformedRecordsAreCountedAndSetAsideWithTheirBytesAndReason() throws Exception {
        createTopic("mixed", 2);
        produce("mixed", 2, LongStream.range(0, 100));
        byte[][] bad = {{1, 2, 3}, {}, null, new byte[9]};
        try (var producer = producer()) {
            for (int i = 0; i < bad.length; i++) {
                producer.send(new ProducerRecord<>("mixed", i % 2, null, bad[i])).get();
            }
        }
        Path deadLetterPath = dir.resolve("dead-letters.jsonl");
        List<Long> good = new CopyOnWriteArrayList<>();
        Job job;
        try (DeadLetterFile deadLetters = new DeadLetterFile(deadLetterPath)) {
            job = engine.newJob(pipeline("mixed", KafkaSourceOptions.defaults(deadLetters), good));
            await().atMost(Duration.ofSeconds(30)).until(() -> malformed(job) == bad.length && good.size() == 100);
            job.cancel();
            await().atMost(Duration.ofSeconds(10)).until(job::isDone);
        }
        assertThat(good).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 100).boxed().toList());
        List<String> lines = Files.readAllLines(deadLetterPath);
        assertThat(lines).hasSize(bad.length).allMatch(l -> l.contains("\"topic\":\"mixed\"") && l.contains("expected 8 bytes"));
        assertThat(lines).anyMatch(l -> l.contains("\"value\":\"" + Base64.getEncoder().encodeToString(bad[0]) + "\""))
                         .anyMatch(l -> l.contains("\"value\":null"))
                         .anyMatch(l -> l.contains("\"value\":\"\""));
    }

    private static long malformed(Job job) {
        return job.metrics().entrySet().stream().filter(e -> e.getKey().endsWith(".malformedRecords")).mapToLong(Map.Entry::getValue).sum();
    }

    private static Pipeline pipeline(String topic, KafkaSourceOptions options, List<Long> sink) {
        Pipeline p = Pipeline.create();
        p.readFrom(KafkaSources.kafka(clientProps(), topic, KafkaConnectorsTest::decodeLong, options))
         .withoutTimestamps()
         .writeTo(Sinks.list(sink));
        return p;
    }

    private static KafkaSourceOptions options() throws java.io.IOException {
        return KafkaSourceOptions.defaults(new DeadLetterFile(Files.createTempFile(dir, "dead-letters", ".jsonl")));
    }

    static Long decodeLong(ConsumerRecord<byte[], byte[]> record) {
        byte[] v = record.value();
        if (v == null || v.length != 8) {
            throw new IllegalArgumentException("expected 8 bytes, got " + (v == null ? "null" : v.length));
        }
        return ByteBuffer.wrap(v).getLong();
    }

    @Test
    void aTopicsPartitionsAreCountedBeforeAJobAndAMissingTopicIsNamed() throws Exception {
        createTopic("counted", 3);
        assertThat(KafkaSources.partitionCount(clientProps(), "counted", Duration.ofSeconds(30))).isEqualTo(3);
        assertThatThrownBy(() -> KafkaSources.partitionCount(clientProps(), "never-made", Duration.ofMillis(500)))
                .isInstanceOf(IllegalStateException.class).hasMessage("Kafka topic 'never-made' does not exist (no partitions after PT0.5S)");
    }

    static byte[] encodeLong(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(clientProps(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void produce(String topic, int partitions, LongStream values) throws Exception {
        try (var producer = producer()) {
            values.forEach(v -> producer.send(new ProducerRecord<>(topic, (int) (v % partitions), null, encodeLong(v))));
            producer.flush();
        }
    }

    /** Everything in the topic once it holds at least {@code n} records (or after 60 s). */
    private static List<Long> readAtLeast(String topic, int partitions, int n) {
        List<Long> values = new ArrayList<>();
        Map<String, Object> props = new HashMap<>(clientProps());
        props.put("auto.offset.reset", "earliest");
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(until, quietUntil)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    values.add(decodeLong(r));
                }
                if (values.size() >= n && quietUntil == Long.MAX_VALUE) {
                    quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                }
            }
        }
        return values;
    }
}
