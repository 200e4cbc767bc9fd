package io.fournines.engine.execution;

import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.core.GlobalKey;

import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

/**
 * Maps a key to one of a fixed number of partitions. Uses the key's own hashCode, mixed so that
 * sequential ids spread evenly; stable across JVMs for strings, boxed primitives and records of them.
 * {@link GlobalKey} is always in partition 0, which instance 0 owns ({@link #ownerTable}).
 */
public final class Partitioner {

    /** Jet's default: a prime, so that common key patterns do not alias onto few partitions. */
    public static final int DEFAULT_PARTITION_COUNT = 271;

    private final int partitionCount;

    public Partitioner(int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be >= 1, got " + partitionCount);
        }
        this.partitionCount = partitionCount;
    }

    public int partitionCount() {
        return partitionCount;
    }

    public int partition(Object key) {
        if (key == null) {
            throw new NullPointerException("partitioning key is null");
        }
        if (key == GlobalKey.INSTANCE) {
            return 0;
        }
        return partitionOfHash(key.hashCode());
    }

    /** The partition of an item's key by {@code keyFn}: a {@link LongKeyFn}'s key is not boxed. */
    @SuppressWarnings("unchecked")
    public ToIntFunction<Object> partitionOfItem(Function<?, ?> keyFn) {
        if (keyFn instanceof LongKeyFn<?> longKeyFn) {
            LongKeyFn<Object> key = (LongKeyFn<Object>) longKeyFn;
            return item -> partition(key.applyAsLong(item));
        }
        Function<Object, ?> key = (Function<Object, ?>) keyFn;
        return item -> partition(key.apply(item));
    }

    /** The partition of a long key: the same as of the key boxed. */
    public int partition(long key) {
        return partitionOfHash(Long.hashCode(key));
    }

    private int partitionOfHash(int hashCode) {
        int h = hashCode * 0x9E3779B9;
        return Math.floorMod(h ^ (h >>> 16), partitionCount);
    }

    /** Which of {@code owners} instances owns each partition: round-robin, so each gets an equal share. */
    public int[] ownerTable(int owners) {
        int[] table = new int[partitionCount];
        for (int p = 0; p < partitionCount; p++) {
            table[p] = p % owners;
        }
        return table;
    }

    /**
     * The partitions, in order, that instances {@code fromInstance} up to (not including) {@code
     * toInstance} of {@code owners} own: one instance's, or a member's (its instances are
     * consecutive, numbered over all members in member order).
     */
    public int[] partitionsOwnedBy(int fromInstance, int toInstance, int owners) {
        int[] owner = ownerTable(owners);
        return IntStream.range(0, partitionCount).filter(p -> owner[p] >= fromInstance && owner[p] < toInstance).toArray();
    }
}
