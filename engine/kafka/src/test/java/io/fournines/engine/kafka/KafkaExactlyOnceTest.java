package io.fournines.engine.kafka;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static io.fournines.engine.kafka.KafkaConnectorsTest.decodeLong;
import static io.fournines.engine.kafka.KafkaConnectorsTest.encodeLong;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka → engine → Kafka with snapshots, on a real broker: records keep arriving while the job runs,
 * the job is cancelled mid-stream after some snapshots and started again from the latest one. The
 * source's offsets come from the snapshot; with the transactional sink a read_committed consumer
 * sees every record exactly once, with the at-least-once sink every record at least once.
 */
class KafkaExactlyOnceTest extends BrokerAndEngineTest {

    private static final String STALLS = "stalls-before-kafka-commit";
    private static final int RECORDS = 60_000;
    private static final double RATE = 15_000;
    private static final int IN_PARTITIONS = 4;
    private static final int OUT_PARTITIONS = 3;

    @ParameterizedTest(name = "{0} sink, {1}, cancelled after {2} snapshots")
    @CsvSource({
            "transactional, EXACTLY_ONCE, 3",
            "transactional, EXACTLY_ONCE, 6",
            "transactional, AT_LEAST_ONCE, 4",
            "at-least-once, EXACTLY_ONCE, 4",
            "stalls-before-kafka-commit, EXACTLY_ONCE, 3",
    })
    void aJobCancelledMidStreamAndRestoredLosesNothing(String sink, ProcessingGuarantee guarantee, int snapshots) throws Exception {
        String name = sink + "-" + guarantee + "-" + snapshots;
        CountDownLatch stalled = new CountDownLatch(sink.equals(STALLS) ? 1 : 0);
        createTopic(name + "-in", IN_PARTITIONS);
        createTopic(name + "-out", OUT_PARTITIONS);
        InMemorySnapshotStore store = new InMemorySnapshotStore();
        JobConfig config = JobConfig.snapshotting(guarantee, Duration.ofMillis(150), store);
        Job first = engine.newJob(pipeline(name, sink, snapshots, stalled), config);
        await().atMost(Duration.ofSeconds(30)).failFast("the job ended", () -> failed(first)).until(() -> first.committedSnapshotCount() >= 1);
        // Records arrive while the first job runs (the first half) and after it was cancelled (the second).
        CountDownLatch cancelled = new CountDownLatch(1);
        CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> produceAtRate(name + "-in", cancelled));
        await().atMost(Duration.ofSeconds(30)).failFast("the job ended", () -> failed(first)).until(() -> metric(first, ".itemsIn") > 0);
        long sinkBusySince = first.committedSnapshotCount();
        await().atMost(Duration.ofSeconds(30)).failFast("the job ended", () -> failed(first))
               .until(() -> first.committedSnapshotCount() >= sinkBusySince + snapshots && stalled.getCount() == 0);
        first.cancel();
        await().atMost(Duration.ofSeconds(10)).until(first::isDone);
        cancelled.countDown();

        String secondSink = sink.equals(STALLS) ? "transactional" : sink;
        Job second = engine.newJob(pipeline(name, secondSink, 0, stalled), config.restoringLatest());
        producing.get(60, TimeUnit.SECONDS);
        awaitCommitted(name + "-out", RECORDS);
        long rewritten = metric(second, ".recordsRewritten");
        second.cancel();
        await().atMost(Duration.ofSeconds(10)).until(second::isDone);
        // Everything committed, read to the end: a duplicate that came late still counts.
        List<Long> out = readCommitted(name + "-out");
        if (sink.equals(STALLS)) {
            assertThat(rewritten).as("the restored snapshot's uncommitted transaction was written again").isPositive();
        }

        assertThat(new HashSet<>(out)).as("nothing lost").isEqualTo(LongStream.range(0, RECORDS).boxed().collect(Collectors.toSet()));
        if (!sink.equals("at-least-once") && guarantee == ProcessingGuarantee.EXACTLY_ONCE) {
            assertThat(out).as("nothing twice").hasSize(RECORDS);
        } else {
            assertThat(out).hasSizeGreaterThanOrEqualTo(RECORDS);
        }
    }

    private static long metric(Job job, String suffix) {
        return job.metrics().entrySet().stream().filter(e -> e.getKey().endsWith(suffix)).mapToLong(Map.Entry::getValue).sum();
    }

    /** Whether the job ended on its own; its failure goes to the test's output. */
    private static boolean failed(Job job) {
        if (!job.isDone()) {
            return false;
        }
        try {
            job.join();
        } catch (Exception e) {
            e.printStackTrace();
        }
        return true;
    }

    /**
     * The sink: transactional, at-least-once, or transactional but stalling (as if the member died)
     * right after the store committed the {@code stallAt}-th snapshot since it took its first item,
     * before Kafka commits its transaction.
     */
    private static Pipeline pipeline(String name, String sinkKind, int stallAt, CountDownLatch stalled) throws Exception {
        Function<Long, ProducerRecord<byte[], byte[]>> toRecord = v -> new ProducerRecord<>(name + "-out", null, encodeLong(v));
        Sink<Long> sink = switch (sinkKind) {
            case "transactional" -> KafkaSinks.kafkaTransactional(clientProps(), name, toRecord);
            case "at-least-once" -> KafkaSinks.kafka(clientProps(), toRecord);
            case STALLS -> Sinks.fromProcessor("kafka-transactional", () -> new StallingSinkP(new KafkaTransactionalSinkP<>(clientProps(), name, toRecord),
                    stallAt, stalled));
            default -> throw new IllegalArgumentException(sinkKind);
        };
        Pipeline p = Pipeline.create();
        p.readFrom(KafkaSources.kafka(clientProps(), name + "-in", KafkaConnectorsTest::decodeLong,
                         KafkaSourceOptions.defaults(new DeadLetterFile(Files.createTempFile(dir, "dead-letters", ".jsonl")))))
         .withoutTimestamps()
         .writeTo(sink);
        return p;
    }

    /** Writes 0..RECORDS-1 round-robin over the partitions at {@link #RATE} per second; the second half once {@code cancelled}. */
    private static void produceAtRate(String topic, CountDownLatch cancelled) {
        try (var producer = new KafkaProducer<>(clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            for (long v = 0; v < RECORDS; v++) {
                if (v == RECORDS / 2) {
                    cancelled.await();
                    start = System.nanoTime() - (long) (v / RATE * 1e9);
                }
                long wait = start + (long) (v / RATE * 1e9) - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                producer.send(new ProducerRecord<>(topic, (int) (v % IN_PARTITIONS), null, encodeLong(v)));
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (60 s at most) until a read_committed consumer sees at least {@code n} records in the topic. */
    private static void awaitCommitted(String topic, int n) {
        try (var consumer = readCommittedConsumer(topic)) {
            long seen = 0;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen < n && System.nanoTime() < until) {
                seen += consumer.poll(Duration.ofMillis(100)).count();
            }
        }
    }

    /**
     * Every record a read_committed consumer sees in the topic, read from the start to the end
     * offsets it is given (the last stable offsets: a transaction left open ends the reading there,
     * uncounted), not until a silence.
     */
    private static List<Long> readCommitted(String topic) {
        List<Long> values = new ArrayList<>();
        try (var consumer = readCommittedConsumer(topic)) {
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                assertThat(System.nanoTime()).as("read to the end offsets %s within 60 s", end).isLessThan(until);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    values.add(decodeLong(r));
                }
            }
        }
        return values;
    }

    private static KafkaConsumer<byte[], byte[]> readCommittedConsumer(String topic) {
        Map<String, Object> props = new HashMap<>(clientProps());
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", "read_committed");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.assign(IntStream.range(0, OUT_PARTITIONS).mapToObj(p -> new TopicPartition(topic, p)).toList());
        return consumer;
    }

}
