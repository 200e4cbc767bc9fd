package io.fournines.engine.kafka;

import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.snapshot.SnapshotReader;
import io.fournines.engine.snapshot.SnapshotStore;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;

/** The Kafka offsets a committed snapshot holds: where a job restored from it resumes reading. */
public final class SnapshotOffsets {

    /** The vertex a {@link KafkaSources#kafka} source becomes in a job (the pipeline names sources "source(name)"). */
    public static final String SOURCE_VERTEX = "source(" + KafkaSources.NAME + ")";

    private SnapshotOffsets() {
    }

    /** Topic partition -> next offset to read, as the Kafka source of {@code vertex} saved them in {@code snapshotId}. */
    public static Map<TopicPartition, Long> read(SnapshotStore store, long snapshotId, String vertex) {
        KafkaSourceP.allowSnapshotClasses();
        Map<TopicPartition, Long> offsets = new HashMap<>();
        if (snapshotId == SnapshotStore.NONE) {
            return offsets;
        }
        SnapshotReader reader = new SnapshotReader(store, snapshotId, vertex, new int[0]);
        for (Map.Entry<Object, Object> e; (e = reader.next()) != null; ) {
            if (e.getKey() instanceof BroadcastKey key && key.id() instanceof TopicPartition tp) {
                offsets.put(tp, (Long) e.getValue());
            }
        }
        return offsets;
    }
}
