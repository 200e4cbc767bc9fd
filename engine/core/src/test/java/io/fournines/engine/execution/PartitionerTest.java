package io.fournines.engine.execution;

import io.fournines.engine.core.GlobalKey;
import org.junit.jupiter.api.Test;

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

    /** A window saved under unboxed long keys is restored by the instance owning the keys boxed. */
    @Test
    void aLongKeyIsInThePartitionOfTheKeyBoxed() {
        Partitioner partitioner = new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT);
        LongStream.of(0, 1, -1, 271, 1L << 32, -(1L << 40) + 7, Long.MIN_VALUE, Long.MAX_VALUE).forEach(key ->
                assertThat(partitioner.partition(key)).as("key %d", key).isEqualTo(partitioner.partition((Object) key)));
    }
}
