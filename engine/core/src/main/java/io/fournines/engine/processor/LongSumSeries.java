package io.fournines.engine.processor;

import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshot form of many (frame, key, sum) partials: frame ends with how many partials each
 * holds, then the keys and sums in the same order. Keys that are all Longs (ids) are kept as a
 * primitive array, so serializing it costs a few array copies, not an object per partial.
 */
record LongSumSeries(long[] frameEnds, int[] counts, long[] longKeys, Object[] keys, long[] sums) implements Serializable {

    @FunctionalInterface
    interface PartialConsumer {
        void accept(long frameEnd, Object key, long sum);
    }

    void forEach(PartialConsumer out) {
        int i = 0;
        for (int f = 0; f < frameEnds.length; f++) {
            for (int end = i + counts[f]; i < end; i++) {
                out.accept(frameEnds[f], longKeys != null ? (Object) longKeys[i] : keys[i], sums[i]);
            }
        }
    }

    /** Collects partials frame by frame (all of one frame, then the next). */
    static final class Builder {
        private final LongArrayList frameEnds = new LongArrayList();
        private final IntArrayList counts = new IntArrayList();
        /** The keys while all are Longs, unboxed as they come. */
        private final LongArrayList longKeys = new LongArrayList();
        /** Every key once one is not a Long; null until then. */
        private List<Object> objectKeys;
        private final LongArrayList sums = new LongArrayList();

        void add(long frameEnd, Object key, long sum) {
            if (objectKeys == null && key instanceof Long id) {
                addLongKey(frameEnd, id, sum);
                return;
            }
            countIn(frameEnd);
            if (objectKeys == null) {
                objectKeys = new ArrayList<>(longKeys);
            }
            objectKeys.add(key);
            sums.addLong(sum);
        }

        void addLongKey(long frameEnd, long key, long sum) {
            if (objectKeys != null) {
                add(frameEnd, (Object) key, sum);
                return;
            }
            countIn(frameEnd);
            longKeys.addLong(key);
            sums.addLong(sum);
        }

        private void countIn(long frameEnd) {
            int last = frameEnds.size() - 1;
            if (last >= 0 && frameEnds.getLong(last) == frameEnd) {
                counts.setInt(last, counts.getInt(last) + 1);
            } else {
                frameEnds.addLong(frameEnd);
                counts.addInt(1);
            }
        }

        LongSumSeries build() {
            return objectKeys == null
                    ? new LongSumSeries(frameEnds.toLongArray(), counts.toIntArray(), longKeys.toLongArray(), null, sums.toLongArray())
                    : new LongSumSeries(frameEnds.toLongArray(), counts.toIntArray(), null, objectKeys.toArray(), sums.toLongArray());
        }
    }
}
