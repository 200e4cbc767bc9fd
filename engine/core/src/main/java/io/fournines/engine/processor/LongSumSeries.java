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
        private final List<Object> keys = new ArrayList<>();
        private final LongArrayList sums = new LongArrayList();
        private boolean allLongKeys = true;

        void add(long frameEnd, Object key, long sum) {
            int last = frameEnds.size() - 1;
            if (last >= 0 && frameEnds.getLong(last) == frameEnd) {
                counts.setInt(last, counts.getInt(last) + 1);
            } else {
                frameEnds.addLong(frameEnd);
                counts.addInt(1);
            }
            keys.add(key);
            allLongKeys &= key instanceof Long;
            sums.addLong(sum);
        }

        LongSumSeries build() {
            long[] longKeys = null;
            Object[] objectKeys = null;
            if (allLongKeys) {
                longKeys = new long[keys.size()];
                for (int i = 0; i < longKeys.length; i++) {
                    longKeys[i] = (Long) keys.get(i);
                }
            } else {
                objectKeys = keys.toArray();
            }
            return new LongSumSeries(frameEnds.toLongArray(), counts.toIntArray(), longKeys, objectKeys, sums.toLongArray());
        }
    }
}
