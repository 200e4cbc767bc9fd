package io.fournines.engine.snapshot;

import io.fournines.engine.core.ClassAllowList;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The entries of a committed snapshot that one processor instance owns: its vertex's chunks of the
 * broadcast partition and of the given partitions, read one chunk at a time.
 *
 * <p>Chunks come from other members, so they are read through {@link ClassAllowList}'s filter: a
 * class outside it fails the restore naming the class.
 */
public final class SnapshotReader {

    private final Deque<byte[]> chunks = new ArrayDeque<>();
    private final String vertex;
    private ObjectInputStream current;

    public SnapshotReader(SnapshotStore store, long snapshotId, String vertex, int[] ownedPartitions) {
        this.vertex = vertex;
        chunks.addAll(store.read(snapshotId, vertex, SnapshotStore.BROADCAST_PARTITION));
        for (int partition : ownedPartitions) {
            chunks.addAll(store.read(snapshotId, vertex, partition));
        }
    }

    /** The next entry, or null when all are read. */
    public Map.Entry<Object, Object> next() {
        try {
            while (true) {
                if (current == null) {
                    byte[] chunk = chunks.poll();
                    if (chunk == null) {
                        return null;
                    }
                    current = new ObjectInputStream(new ByteArrayInputStream(chunk));
                    current.setObjectInputFilter(ClassAllowList.filter());
                }
                Object key = current.readObject();
                if (key != null) {
                    return new AbstractMap.SimpleImmutableEntry<>(key, current.readObject());
                }
                current = null;
            }
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("snapshot state of vertex '" + vertex + "' could not be read: " + e, e);
        }
    }
}
