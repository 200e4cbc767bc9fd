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
}
