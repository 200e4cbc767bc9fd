package io.fournines.engine.kafka;

import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.Map;
import java.util.function.Function;

/** Kafka as a sink of the Pipeline API. */
public final class KafkaSinks {

    private KafkaSinks() {
    }

    /**
     * Writes each item as the record {@code toRecord} makes, with a producer configured by
     * {@code producerProperties} (at least {@code bootstrap.servers}; serializers are set here).
     * At least once: see {@link KafkaSinkP}.
     */
    public static <T> Sink<T> kafka(Map<String, Object> producerProperties, Function<? super T, ProducerRecord<byte[], byte[]>> toRecord) {
        Map<String, Object> props = Map.copyOf(producerProperties);
        return Sinks.fromProcessor("kafka", () -> new KafkaSinkP<>(props, toRecord));
    }

    /**
     * Exactly once: writes each item inside a Kafka transaction that commits when the job's snapshot
     * commits, with transactional ids {@code <transactionalIdPrefix>-<instance>-<0|1>} (one prefix per
     * sink; keep it across restarts of the job). Needs a job with snapshots; consumers of the output
     * see it at snapshot commits when they read with {@code isolation.level=read_committed}. See
     * {@link KafkaTransactionalSinkP}.
     */
    public static <T> Sink<T> kafkaTransactional(Map<String, Object> producerProperties, String transactionalIdPrefix,
                                                 Function<? super T, ProducerRecord<byte[], byte[]>> toRecord) {
        Map<String, Object> props = Map.copyOf(producerProperties);
        return Sinks.fromProcessor("kafka-transactional", () -> new KafkaTransactionalSinkP<>(props, transactionalIdPrefix, toRecord));
    }

    /**
     * Before a job with {@link #kafkaTransactional} starts: readies what its sink's start-up would
     * otherwise wait for inside the job's first second (see {@link KafkaTransactionalSinkP#prepare}).
     */
    public static void prepareTransactional(Map<String, Object> producerProperties, String transactionalIdPrefix) {
        KafkaTransactionalSinkP.prepare(producerProperties, transactionalIdPrefix);
    }
}
