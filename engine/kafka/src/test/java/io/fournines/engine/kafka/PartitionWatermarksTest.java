package io.fournines.engine.kafka;

import io.fournines.engine.core.Watermark;
import io.fournines.engine.processor.WatermarkPolicy;
import org.junit.jupiter.api.Test;

import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionWatermarksTest {

    private static final long IDLE_AFTER = 1_000;
    private final WatermarkPolicy policy = new WatermarkPolicy((ToLongFunction<Long>) t -> t, 0, 10);

    @Test
    void theWatermarkIsTheLowestOverThePartitions() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 2, IDLE_AFTER, 0);
        w.observe(0, 105L, 1);
        assertThat(w.advance(2)).as("partition 1 has said nothing yet").isEqualTo(PartitionWatermarks.NONE);
        w.observe(1, 57L, 3);
        assertThat(w.advance(4)).isEqualTo(50);
        w.observe(1, 200L, 5);
        assertThat(w.advance(6)).isEqualTo(100);
        assertThat(w.advance(7)).as("nothing new").isEqualTo(PartitionWatermarks.NONE);
    }

    @Test
    void aSilentPartitionStopsHoldingTheWatermarkBackOnceIdle() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 3, IDLE_AFTER, 0);
        w.observe(0, 100L, 10);
        assertThat(w.advance(IDLE_AFTER - 1)).isEqualTo(PartitionWatermarks.NONE);
        w.observe(0, 300L, IDLE_AFTER + 5);
        assertThat(w.advance(IDLE_AFTER + 5)).as("partitions 1 and 2 idle, partition 0 alone").isEqualTo(300);
    }

    @Test
    void allPartitionsIdleSaysIdleOnceAndARecordWakesItUp() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 2, IDLE_AFTER, 0);
        w.observe(0, 100L, 0);
        w.observe(1, 100L, 0);
        assertThat(w.advance(1)).isEqualTo(100);
        assertThat(w.advance(IDLE_AFTER)).isEqualTo(Watermark.IDLE.timestamp());
        assertThat(w.advance(IDLE_AFTER + 1)).isEqualTo(PartitionWatermarks.NONE);
        w.observe(1, 250L, 2 * IDLE_AFTER);
        assertThat(w.advance(2 * IDLE_AFTER)).isEqualTo(250);
    }

    @Test
    void anInstanceWithoutPartitionsIsIdleAtOnce() {
        assertThat(new PartitionWatermarks(policy, 0, IDLE_AFTER, 0).advance(0)).isEqualTo(Watermark.IDLE.timestamp());
    }
}
