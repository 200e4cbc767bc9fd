package io.fournines.engine.snapshot;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The entries of a committed snapshot that one processor instance owns: its vertex's chunks of the
 * broadcast partition and of the given partitions, read one chunk at a time.
 *
 * <p>Chunks come from other members, so they are read through an allow-list filter: Java
 * deserialization of an arbitrary class can run that class's code. Allowed are {@code java.lang},
 * {@code java.util}, {@code java.time} and {@code java.math} classes, everything under
 * {@code io.fournines}, and what a module adds with {@link #allowClasses} (the Kafka source its
 * {@code TopicPartition}); anything else, or an object graph deeper than {@value #MAX_DEPTH}, fails
 * the restore naming the class.
 */
public final class SnapshotReader {

    static final int MAX_DEPTH = 64;
    private static final List<String> ALLOWED = new CopyOnWriteArrayList<>(
            List.of("java.lang.*", "java.util.*", "java.time.*", "java.math.*", "io.fournines.**"));

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
                    current.setObjectInputFilter(filter());
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

    /**
     * Lets snapshot chunks hold classes matching {@code pattern} too ({@link ObjectInputFilter.Config#createFilter}
     * syntax: {@code a.b.C}, {@code a.b.*}, {@code a.b.**}).
     */
    public static void allowClasses(String pattern) {
        if (pattern.isBlank() || pattern.contains(";") || pattern.startsWith("!")) {
            throw new IllegalArgumentException("not a class pattern: '" + pattern + "'");
        }
        if (!ALLOWED.contains(pattern)) {
            ALLOWED.add(pattern);
        }
    }

    private static ObjectInputFilter filter() {
        return ObjectInputFilter.Config.createFilter("maxdepth=" + MAX_DEPTH + ";" + String.join(";", ALLOWED) + ";!*");
    }
}
