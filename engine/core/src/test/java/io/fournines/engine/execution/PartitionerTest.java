package io.fournines.engine.execution;

import io.fournines.engine.core.GlobalKey;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

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
}
