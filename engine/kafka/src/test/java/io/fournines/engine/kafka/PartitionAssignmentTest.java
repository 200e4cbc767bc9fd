package io.fournines.engine.kafka;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionAssignmentTest {

    @Test
    void everyPartitionHasExactlyOneInstanceAndTheSharesDifferByAtMostOne() {
        int partitions = 10;
        int instances = 4;
        int[] all = IntStream.range(0, instances).flatMap(i -> Arrays.stream(PartitionAssignment.partitionsOf(i, instances, partitions))).sorted().toArray();
        assertThat(all).containsExactly(IntStream.range(0, partitions).toArray());
        assertThat(IntStream.range(0, instances).map(i -> PartitionAssignment.partitionsOf(i, instances, partitions).length))
                .allMatch(n -> n == 2 || n == 3);
    }

    @Test
    void moreInstancesThanPartitionsLeavesSomeWithout() {
        assertThat(PartitionAssignment.partitionsOf(3, 4, 2)).isEmpty();
        assertThatThrownBy(() -> PartitionAssignment.partitionsOf(4, 4, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
