package io.fournines.engine.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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

    /** Bytes of state in a snapshot of this store (for metrics). */
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
