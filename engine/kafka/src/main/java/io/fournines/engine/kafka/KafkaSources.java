package io.fournines.engine.kafka;

import io.fournines.engine.pipeline.StreamSource;

import java.util.Map;

/** Kafka as a stream source of the Pipeline API. */
public final class KafkaSources {

    /** The source's name; its vertex in a job is {@link SnapshotOffsets#SOURCE_VERTEX}. */
    static final String NAME = "kafka";

    private KafkaSources() {
    }

    /**
     * Reads {@code topic} with a consumer configured by {@code consumerProperties} (at least
     * {@code bootstrap.servers}; deserializers are set here, auto-commit is off), one
     * {@link KafkaSourceP} per cooperative worker, decoding each record with {@code decoder}.
     */
    public static <T> StreamSource<T> kafka(Map<String, Object> consumerProperties, String topic, RecordDecoder<T> decoder,
                                            KafkaSourceOptions options) {
        Map<String, Object> props = Map.copyOf(consumerProperties);
        return new StreamSource<>(NAME, watermarks -> () -> new KafkaSourceP<>(props, topic, decoder, watermarks, options));
    }
}
