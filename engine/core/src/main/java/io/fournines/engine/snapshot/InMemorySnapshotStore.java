package io.fournines.engine.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/** A {@link SnapshotStore} in this process's heap: the local copy of the snapshot, two slots. */
public final class InMemorySnapshotStore implements SnapshotStore {

    private record ChunkKey(String vertex, int partition) {
    }

    private static final class Slot {
        volatile long snapshotId = NONE;
        final Map<ChunkKey, List<byte[]>> chunks = new ConcurrentHashMap<>();
        final AtomicLong bytes = new AtomicLong();
    }

    private final Slot[] slots = {new Slot(), new Slot()};
    private volatile long latestCommitted = NONE;

    @Override
    public void begin(long snapshotId) {
        if (snapshotId <= latestCommitted) {
            throw new IllegalArgumentException("snapshot " + snapshotId + " is not newer than the committed snapshot " + latestCommitted);
        }
        Slot slot = slot(snapshotId);
        slot.chunks.clear();
        slot.bytes.set(0);
        slot.snapshotId = snapshotId;
    }

    @Override
    public void write(long snapshotId, String vertex, int partition, byte[] chunk) {
        Slot slot = openSlot(snapshotId);
        // Several tasklets of one vertex write to a partition's list (broadcast keys, any keyed state).
        List<byte[]> list = slot.chunks.computeIfAbsent(new ChunkKey(vertex, partition), k -> new ArrayList<>());
        synchronized (list) {
            list.add(chunk);
        }
        slot.bytes.addAndGet(chunk.length);
    }

    @Override
    public void commit(long snapshotId) {
        openSlot(snapshotId);
        latestCommitted = snapshotId;
    }

    @Override
    public long latestCommitted() {
        return latestCommitted;
    }

    @Override
    public List<byte[]> read(long snapshotId, String vertex, int partition) {
        Slot slot = slot(snapshotId);
        if (slot.snapshotId != snapshotId || snapshotId > latestCommitted) {
            throw new IllegalArgumentException("snapshot " + snapshotId + " is not in the store (latest committed: " + latestCommitted + ")");
        }
        List<byte[]> list = slot.chunks.get(new ChunkKey(vertex, partition));
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    /** True when {@code snapshotId} is committed and still whole here (its slot not begun over). */
    public boolean holds(long snapshotId) {
        return snapshotId != NONE && snapshotId <= latestCommitted && slot(snapshotId).snapshotId == snapshotId;
    }

    /** What {@link #forEachChunk} hands out. */
    @FunctionalInterface
    public interface ChunkConsumer {
        void accept(String vertex, int partition, byte[] chunk);
    }

    /** Every chunk of a held snapshot whose partition {@code partitions} accepts, each partition's in the order written. */
    public void forEachChunk(long snapshotId, IntPredicate partitions, ChunkConsumer consumer) {
        if (!holds(snapshotId)) {
            throw new IllegalArgumentException("snapshot " + snapshotId + " is not in the store (latest committed: " + latestCommitted + ")");
        }
        slot(snapshotId).chunks.forEach((key, list) -> {
            if (partitions.test(key.partition())) {
                List<byte[]> copy;
                synchronized (list) {
                    copy = List.copyOf(list);
                }
                copy.forEach(chunk -> consumer.accept(key.vertex(), key.partition(), chunk));
            }
        });
    }

    /** True when {@code snapshotId} was begun here and its slot not begun over since, committed or not. */
    public boolean begun(long snapshotId) {
        return snapshotId != NONE && slot(snapshotId).snapshotId == snapshotId;
    }

    /** Bytes of state in a snapshot of this store (for metrics). */
    @Override
    public long sizeInBytes(long snapshotId) {
        Slot slot = slot(snapshotId);
        return slot.snapshotId == snapshotId ? slot.bytes.get() : 0;
    }

    private Slot openSlot(long snapshotId) {
        Slot slot = slot(snapshotId);
        if (slot.snapshotId != snapshotId) {
            throw new IllegalStateException("snapshot " + snapshotId + " was not begun (its slot holds " + slot.snapshotId + ")");
        }
        return slot;
    }

    private Slot slot(long snapshotId) {
        return slots[(int) (snapshotId & 1)];
    }
}
