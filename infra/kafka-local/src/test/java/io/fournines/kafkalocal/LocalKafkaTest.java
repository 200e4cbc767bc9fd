package io.fournines.kafkalocal;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LocalKafkaTest {

    @Test
    void aRealBrokerTakesRecordsAndLeavesNoDataBehind(@TempDir Path logDir) throws Exception {
        long pid;
        List<String> read = new ArrayList<>();
        try (LocalKafka kafka = LocalKafka.start(logDir)) {
            pid = kafka.pid();
            String bootstrap = kafka.bootstrap();
            assertThat(bootstrap).startsWith("127.0.0.1:");
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", bootstrap),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 100; i++) {
                    producer.send(new ProducerRecord<>("t", i % 2, null, "v" + i));
                }
            }
            try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", bootstrap, "auto.offset.reset", "earliest"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.assign(List.of(new TopicPartition("t", 0), new TopicPartition("t", 1)));
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (read.size() < 100 && System.nanoTime() < until) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        read.add(r.value());
                    }
                }
            }
        }
        assertThat(read).hasSize(100);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(Files.readString(logDir.resolve("broker.log"))).contains("Kafka Server started");
        try (var leftovers = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(leftovers.filter(p -> p.getFileName().toString().startsWith("fournines-kafka-"))
                    .filter(p -> p.toFile().lastModified() > 0).map(Path::toString))
                    .as("no broker data directory of ours may remain").noneMatch(p -> Files.exists(Path.of(p, "log")));
        }
    }

    @Test
    void theBrokerStopsWhenTheProcessThatStartedItIsKilled(@TempDir Path logDir) throws Exception {
        String classes = Path.of(LocalKafka.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process launcher = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classes, LocalKafka.class.getName(), logDir.toString())
                .redirectError(logDir.resolve("launcher.err").toFile())
                .start();
        long brokerPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
            Matcher ready = Pattern.compile("\"broker_pid\":(\\d+)").matcher(out.readLine());
            assertThat(ready.find()).isTrue();
            brokerPid = Long.parseLong(ready.group(1));
        }
        ProcessHandle broker = ProcessHandle.of(brokerPid).orElseThrow();
        launcher.destroyForcibly().waitFor();  // SIGKILL: no shutdown hook runs in the launcher
        await().atMost(Duration.ofSeconds(30)).until(() -> !broker.isAlive());
        assertThat(Files.readString(logDir.resolve("broker.out"))).contains("parent process");
        assertThat(new File(logDir.toFile(), "broker.log")).exists();
    }
}
