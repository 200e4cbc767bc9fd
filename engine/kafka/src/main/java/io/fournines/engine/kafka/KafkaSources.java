package io.fournines.engine.kafka;

import io.fournines.engine.pipeline.StreamSource;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Kafka as a stream source of the Pipeline API. */
public final class KafkaSources {

    /** The source's name; the vertex that holds it in a job: {@link SnapshotOffsets#sourceVertexIn}. */
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
        return new StreamSource<>(NAME, plan -> () -> new KafkaSourceP<>(props, topic, decoder, plan.watermarks(), options));
    }

    /**
     * How many partitions {@code topic} has, asked with a consumer of its own: a job runner calls it
     * before the job's start instant, so a missing topic fails the job before it starts, and the
     * Kafka client is loaded by then: on a cold JVM its classes take seconds, which the sources'
     * init would otherwise spend after the start, with the job's events already due.
     *
     * @throws IllegalStateException the topic has no partitions within {@code timeout}
     */
    public static int partitionCount(Map<String, Object> consumerProperties, String topic, Duration timeout) {
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return partitionsOf(consumer, topic, timeout).size();
        }
    }

    /** {@code topic}'s partitions, or an IllegalStateException naming it if it has none within {@code timeout}. */
    static List<PartitionInfo> partitionsOf(Consumer<?, ?> consumer, String topic, Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException("Kafka topic '" + topic + "' does not exist (no partitions after " + timeout + ")");
        }
        return infos;
    }
}
