package io.fournines.engine.kafka;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.kafkalocal.LocalKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A real broker and an engine with two workers, one of each per test class (the broker takes seconds to start). */
abstract class BrokerAndEngineTest {

    @TempDir
    static Path dir;
    static LocalKafka kafka;
    static Engine engine;

    @BeforeAll
    static void start() throws Exception {
        kafka = LocalKafka.start(dir.resolve("broker"));
        engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        engine.close();
        kafka.close();
    }

    static Map<String, Object> clientProps() {
        return Map.of("bootstrap.servers", kafka.bootstrap());
    }

    static void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(clientProps())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }
}
