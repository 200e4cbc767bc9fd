package io.fournines.engine.kafka;

import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.StreamStage;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The offsets are read from the vertex the Kafka source runs in, whether stages were fused into it or not. */
class SnapshotOffsetsTest {

    @Test
    void theSourceVertexIsFoundAloneOrWithTheStagesFusedIntoIt() {
        Pipeline alone = Pipeline.create();
        StreamStage<byte[]> values = kafka(alone);
        values.writeTo(Sinks.discard());
        values.map(v -> v.length).writeTo(Sinks.discard());

        Pipeline fused = Pipeline.create();
        kafka(fused).filter(v -> v.length > 0).map(v -> v.length).writeTo(Sinks.discard());

        assertThat(SnapshotOffsets.sourceVertexIn(alone.toDag())).isEqualTo("source(kafka)");
        assertThat(SnapshotOffsets.sourceVertexIn(fused.toDag())).isEqualTo("fused(source(kafka), filter, map)");
    }

    private static StreamStage<byte[]> kafka(Pipeline p) {
        DeadLetters none = new DeadLetters() {
            @Override
            public void setAside(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record, String reason) {
            }

            @Override
            public void close() {
            }
        };
        return p.readFrom(KafkaSources.kafka(Map.of("bootstrap.servers", "127.0.0.1:1"), "topic", r -> r.value(),
                KafkaSourceOptions.defaults(none))).withoutTimestamps();
    }
}
