package io.fournines.engine.processor;

import io.fournines.engine.core.PartitionedKey;
import io.fournines.engine.core.Processor;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.Map;
import java.util.function.Consumer;

/**
 * (frame, key, sum) partials grouped by their key's partition into {@link LongSumSeries} snapshot
 * entries, finished a share of the partitions at a time: every partition's entry grows at the same
 * pace, so finishing them all together would serialize the whole state in one call.
 */
final class PartitionedSeries {

    /** A partition's entry is finished every ROUNDS rounds; prime, so no pattern in how partitions are owned aligns with it. */
    static final int ROUNDS = 61;

    private final Processor.Context context;
    private final String stateId;
    private final Int2ObjectHashMap<LongSumSeries.Builder> building = new Int2ObjectHashMap<>();
    private int round;

    PartitionedSeries(Processor.Context context, String stateId) {
        this.context = context;
        this.stateId = stateId;
    }

    void add(long frameEnd, Object key, long sum) {
        builderOf(context.partitionOf(key)).add(frameEnd, key, sum);
    }

    void addLongKey(long frameEnd, long key, long sum) {
        builderOf(context.partitionOfLong(key)).addLongKey(frameEnd, key, sum);
    }

    private LongSumSeries.Builder builderOf(int partition) {
        return building.computeIfAbsent(partition, p -> new LongSumSeries.Builder());
    }

    /** Finishes the entries of this round's share of the partitions. */
    void finishRound(Consumer<Map.Entry<Object, Object>> out) {
        int share = round++ % ROUNDS;
        for (Int2ObjectHashMap<LongSumSeries.Builder>.EntryIterator it = building.entrySet().iterator(); it.hasNext(); ) {
            it.next();
            if (it.getIntKey() % ROUNDS == share) {
                out.accept(Map.entry(new PartitionedKey(it.getIntKey(), stateId), it.getValue().build()));
                it.remove();
            }
        }
    }

    boolean isEmpty() {
        return building.isEmpty();
    }
}
