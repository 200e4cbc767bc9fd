package io.fournines.engine.kafka;

import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.dag.Vertex;
import io.fournines.engine.snapshot.SnapshotReader;
import io.fournines.engine.snapshot.SnapshotStore;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The Kafka offsets a committed snapshot holds: where a job restored from it resumes reading. */
public final class SnapshotOffsets {

    /** The vertex a {@link KafkaSources#kafka} source becomes in a job (the pipeline names sources "source(name)"). */
    public static final String SOURCE_VERTEX = "source(" + KafkaSources.NAME + ")";

    private SnapshotOffsets() {
    }

    /**
     * The vertex that holds the Kafka source in {@code dag}: {@link #SOURCE_VERTEX}, or the vertex the
     * stages after it were fused into ("fused(source(kafka), ...)"), whose snapshots hold its offsets.
     */
    public static String sourceVertexIn(Dag dag) {
        List<String> names = dag.vertices().stream().map(Vertex::name)
                .filter(n -> n.equals(SOURCE_VERTEX) || n.startsWith("fused(" + SOURCE_VERTEX + ", ")).toList();
        if (names.size() != 1) {
            throw new IllegalArgumentException("expected one Kafka source vertex in the job, found " + names);
        }
        return names.get(0);
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
