package io.fournines.engine.snapshot;

import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.PartitionedKey;
import io.fournines.engine.execution.Partitioner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * One processor instance's side of a snapshot: serializes its entries into a chunk per partition of
 * the key (broadcast keys to their own), and hands a chunk on once it reaches
 * {@link #CHUNK_BYTES}, so state of any size is written in bounded pieces.
 */
public final class SnapshotWriter {

    /** Big enough to amortise a chunk's stream header and class descriptors, small enough to replicate as one packet run. */
    static final int CHUNK_BYTES = 256 * 1024;

    /** Where finished chunks go: a snapshot in the store, or a finished processor's final state. */
    @FunctionalInterface
    public interface ChunkSink {
        void accept(String vertex, int partition, byte[] chunk);
    }

    private final String vertex;
    private final Partitioner partitioner;
    private final Map<Integer, Chunk> open = new HashMap<>();
    private ChunkSink sink;
    private long entries;

    private static final class Chunk {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        final ObjectOutputStream out;

        Chunk() throws IOException {
            out = new ObjectOutputStream(bytes);
        }
    }

    public SnapshotWriter(String vertex, Partitioner partitioner) {
        this.vertex = vertex;
        this.partitioner = partitioner;
    }

    public void begin(ChunkSink sink) {
        if (this.sink != null) {
            throw new IllegalStateException("a snapshot of '" + vertex + "' is already being written");
        }
        this.sink = sink;
        this.entries = 0;
    }

    public void write(Object key, Object value) {
        if (sink == null) {
            throw new IllegalStateException("vertex '" + vertex + "' offered to the snapshot outside saveToSnapshot()/snapshotCommitPrepare()/continueSnapshotSave()");
        }
        int partition = key instanceof BroadcastKey ? SnapshotStore.BROADCAST_PARTITION
                : key instanceof PartitionedKey p ? p.partition() : partitioner.partition(key);
        try {
            Chunk chunk = open.get(partition);
            if (chunk == null) {
                chunk = new Chunk();
                open.put(partition, chunk);
            }
            chunk.out.writeObject(key);
            chunk.out.writeObject(value);
            entries++;
            if (chunk.bytes.size() >= CHUNK_BYTES) {
                open.remove(partition);
                sink.accept(vertex, partition, close(chunk));
            }
        } catch (NotSerializableException e) {
            throw new IllegalStateException("vertex '" + vertex + "' saved state that is not Serializable: " + e.getMessage()
                    + " (key " + key.getClass().getName() + ", value " + (value == null ? "null" : value.getClass().getName()) + ")", e);
        } catch (IOException e) {
            throw new IllegalStateException("vertex '" + vertex + "' could not serialize snapshot state: " + e, e);
        }
    }

    /** Writes the chunks still open; returns how many entries this snapshot held. */
    public long finish() {
        open.forEach((partition, chunk) -> sink.accept(vertex, partition, close(chunk)));
        open.clear();
        sink = null;
        return entries;
    }

    private static byte[] close(Chunk chunk) {
        try {
            // A null key ends the chunk, so a reader needs no count up front.
            chunk.out.writeObject(null);
            chunk.out.close();
        } catch (IOException e) {
            throw new IllegalStateException("could not close a snapshot chunk: " + e, e);
        }
        return chunk.bytes.toByteArray();
    }
}
