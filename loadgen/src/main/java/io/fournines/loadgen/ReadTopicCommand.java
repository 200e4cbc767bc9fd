package io.fournines.loadgen;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code read-topic}: a topic's values, as a reader downstream of a job sees them, into a file: what
 * {@code chaos} checks a job's Kafka output with. With {@code --committed} it reads as an
 * exactly-once consumer does ({@code isolation.level=read_committed}): records of open or aborted
 * transactions are not seen, and records after an open transaction wait for it to end. A
 * transaction still open after {@code --stable-s} holds its records, and every later one, back from
 * such readers: the command says how many and exits 1.
 */
@Command(name = "read-topic",
        description = {"Writes the value of every record of --topic, first to last, one line each (UTF-8), to --out.",
            "--committed: only what committed transactions wrote (isolation.level=read_committed), after waiting up to",
            "--stable-s for open transactions to end. Ends with a JSON line: records read, and records still held back.",
            "Exit: 0 all read; 1 records still held back by an open transaction, or the topic could not be read to its end; 2 bad arguments or no such topic."})
final class ReadTopicCommand implements Callable<Integer> {

    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(10);
    private static final long READ_TIMEOUT_SECONDS = 60;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    TopicOptions kafka;

    @Option(names = "--out", required = true, description = "the file to write")
    Path out;

    @Option(names = "--committed", description = "read committed records only, as an exactly-once reader does")
    boolean committed;

    @Option(names = "--stable-s", defaultValue = "10", description = "with --committed: how long to wait for open transactions to end (default ${DEFAULT-VALUE})")
    double stableSeconds;

    @Override
    public Integer call() throws Exception {
        return read(System.out, System.err);
    }

    int read(PrintStream stdout, PrintStream stderr) throws Exception {
        try (KafkaConsumer<byte[], byte[]> reader = consumer(committed ? "read_committed" : "read_uncommitted");
             KafkaConsumer<byte[], byte[]> all = consumer("read_uncommitted")) {
            List<PartitionInfo> infos;
            try {
                infos = reader.partitionsFor(kafka.topic, METADATA_TIMEOUT);
            } catch (KafkaException e) {
                infos = List.of();
            }
            if (infos == null || infos.isEmpty()) {
                stderr.println("read-topic: topic " + kafka.topic + " does not exist on " + kafka.bootstrap);
                return 2;
            }
            List<TopicPartition> partitions = infos.stream().map(i -> new TopicPartition(kafka.topic, i.partition())).toList();
            // The end a committed reader reaches is the last stable offset: below the end of the log while a transaction is open.
            Map<TopicPartition, Long> written = all.endOffsets(partitions);
            Map<TopicPartition, Long> end = reader.endOffsets(partitions);
            long stableBy = System.nanoTime() + (long) (stableSeconds * 1e9);
            while (heldBack(written, end) > 0 && System.nanoTime() < stableBy) {
                TimeUnit.MILLISECONDS.sleep(100);
                written = all.endOffsets(partitions);
                end = reader.endOffsets(partitions);
            }
            long heldBack = heldBack(written, end);
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            long records = 0;
            boolean complete = true;
            try (BufferedWriter file = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(READ_TIMEOUT_SECONDS);
                while (!reachedEnd(reader, end)) {
                    if (System.nanoTime() > until) {
                        complete = false;
                        break;
                    }
                    for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(100))) {
                        if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                            file.write(r.value() == null ? "null" : new String(r.value(), StandardCharsets.UTF_8));
                            file.newLine();
                            records++;
                        }
                    }
                }
            }
            stdout.printf(Locale.ROOT, "{\"type\":\"read\",\"topic\":\"%s\",\"records\":%d,\"held_back\":%d,\"complete\":%b}%n",
                    kafka.topic, records, heldBack, complete);
            if (!complete) {
                stderr.println("read-topic: " + kafka.topic + " was not read to its end within " + READ_TIMEOUT_SECONDS + " s");
                return 1;
            }
            if (heldBack > 0) {
                stderr.printf(Locale.ROOT, "read-topic: %d records of %s are held back from committed readers by a transaction still open after %.0f s%n",
                        heldBack, kafka.topic, stableSeconds);
                return 1;
            }
            return 0;
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static long heldBack(Map<TopicPartition, Long> written, Map<TopicPartition, Long> end) {
        return written.entrySet().stream().mapToLong(e -> e.getValue() - end.get(e.getKey())).sum();
    }

    private static boolean reachedEnd(KafkaConsumer<byte[], byte[]> reader, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> reader.position(e.getKey()) >= e.getValue());
    }
}
