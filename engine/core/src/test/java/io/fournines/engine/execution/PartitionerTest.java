package io.fournines.engine.execution;

import io.fournines.engine.aggregate.LongKeyFn;
import io.fournines.engine.core.GlobalKey;
import org.junit.jupiter.api.Test;

import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionerTest {

    /** Where an all-to-one edge delivers at every size: so a global aggregate's state is restored there. */
    @Test
    void theGlobalKeyIsOwnedByInstanceZeroAtAnyNumberOfInstances() {
        Partitioner partitioner = new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT);
        int partition = partitioner.partition(GlobalKey.INSTANCE);
        IntStream.rangeClosed(1, 64).forEach(owners ->
                assertThat(partitioner.ownerTable(owners)[partition]).as("owner among %d instances", owners).isZero());
    }

    /**
     * A window saved under unboxed long keys is restored by the instance owning the keys boxed, and a
     * partial routed by an unboxed key goes where one under the key boxed would.
     */
    @Test
    void aLongKeyIsInThePartitionOfTheKeyBoxed() {
        Partitioner partitioner = new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT);
        ToIntFunction<Object> byLongKey = partitioner.partitionOfItem((LongKeyFn<long[]>) item -> item[0]);
        ToIntFunction<Object> byBoxedKey = partitioner.partitionOfItem((Function<long[], Long>) item -> item[0]);
        LongStream.of(0, 1, -1, 271, 1L << 32, -(1L << 40) + 7, Long.MIN_VALUE, Long.MAX_VALUE).forEach(key -> {
            int boxed = partitioner.partition((Object) key);
            assertThat(partitioner.partition(key)).as("key %d", key).isEqualTo(boxed);
            assertThat(byLongKey.applyAsInt(new long[] {key})).as("item of key %d", key).isEqualTo(boxed);
            assertThat(byBoxedKey.applyAsInt(new long[] {key})).as("item of key %d", key).isEqualTo(boxed);
        });
    }
}
