package io.fournines.engine.kafka;

import io.fournines.engine.core.Watermark;
import io.fournines.engine.processor.WatermarkPolicy;
import org.junit.jupiter.api.Test;

import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionWatermarksTest {

    private static final long IDLE_AFTER = 1_000;
    private static final IntPredicate NOTHING_WAITING = i -> false;
    private final WatermarkPolicy policy = new WatermarkPolicy((ToLongFunction<Long>) t -> t, 0, 10);

    @Test
    void theWatermarkIsTheLowestOverThePartitions() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 2, IDLE_AFTER, 0);
        w.observe(0, 105L, 1);
        assertThat(w.advance(2, NOTHING_WAITING)).as("partition 1 has said nothing yet").isEqualTo(PartitionWatermarks.NONE);
        w.observe(1, 57L, 3);
        assertThat(w.advance(4, NOTHING_WAITING)).isEqualTo(50);
        w.observe(1, 200L, 5);
        assertThat(w.advance(6, NOTHING_WAITING)).isEqualTo(100);
        assertThat(w.advance(7, NOTHING_WAITING)).as("nothing new").isEqualTo(PartitionWatermarks.NONE);
    }

    @Test
    void aSilentPartitionStopsHoldingTheWatermarkBackOnceIdle() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 3, IDLE_AFTER, 0);
        w.observe(0, 100L, 10);
        assertThat(w.advance(IDLE_AFTER - 1, NOTHING_WAITING)).isEqualTo(PartitionWatermarks.NONE);
        w.observe(0, 300L, IDLE_AFTER + 5);
        assertThat(w.advance(IDLE_AFTER + 5, NOTHING_WAITING)).as("partitions 1 and 2 idle, partition 0 alone").isEqualTo(300);
    }

    @Test
    void aSilentPartitionWithRecordsWaitingIsASlowReaderNotAnIdleOne() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 2, IDLE_AFTER, 0);
        w.observe(0, 500L, 10);
        // Partition 1's reader has delivered nothing for longer than the idle timeout, but its consumer
        // knows of records waiting (or has not fetched yet): partition 0 must not run ahead of them.
        assertThat(w.advance(2 * IDLE_AFTER, i -> i == 1)).isEqualTo(PartitionWatermarks.NONE);
        w.observe(1, 200L, 2 * IDLE_AFTER + 1);
        assertThat(w.advance(2 * IDLE_AFTER + 1, i -> false)).isEqualTo(200);
    }

    @Test
    void allPartitionsIdleSaysIdleOnceAndARecordWakesItUp() {
        PartitionWatermarks w = new PartitionWatermarks(policy, 2, IDLE_AFTER, 0);
        w.observe(0, 100L, 0);
        w.observe(1, 100L, 0);
        assertThat(w.advance(1, NOTHING_WAITING)).isEqualTo(100);
        assertThat(w.advance(IDLE_AFTER, NOTHING_WAITING)).isEqualTo(Watermark.IDLE.timestamp());
        assertThat(w.advance(IDLE_AFTER + 1, NOTHING_WAITING)).isEqualTo(PartitionWatermarks.NONE);
        w.observe(1, 250L, 2 * IDLE_AFTER);
        assertThat(w.advance(2 * IDLE_AFTER, NOTHING_WAITING)).isEqualTo(250);
    }

    @Test
    void anInstanceWithoutPartitionsIsIdleAtOnce() {
        assertThat(new PartitionWatermarks(policy, 0, IDLE_AFTER, 0).advance(0, NOTHING_WAITING)).isEqualTo(Watermark.IDLE.timestamp());
    }
}
