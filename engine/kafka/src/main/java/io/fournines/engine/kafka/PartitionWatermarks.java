package io.fournines.engine.kafka;

import io.fournines.engine.core.Watermark;
import io.fournines.engine.processor.WatermarkGenerator;
import io.fournines.engine.processor.WatermarkPolicy;

import java.util.function.IntPredicate;

/**
 * One source instance's watermark over its partitions. Each partition has its own
 * {@link WatermarkGenerator} (records are ordered within a partition, not across them), and the
 * instance's watermark is the lowest over the partitions that are not idle. A partition is idle once
 * it has delivered nothing for {@code idleTimeoutNanos} and has no records waiting (as far as its
 * consumer knows): a reader that is merely slow, at start, after a restart or on a loaded machine,
 * is not idle while the broker holds records for it, so the others' watermark cannot overtake its
 * records and make them late. When every partition is idle the instance says
 * {@link Watermark#IDLE}, so a silent partition never holds windows back.
 * A partition that wakes up again rejoins the minimum; records behind a watermark already sent are
 * late, as the window stages count them. A partition that {@link #ended} holds nothing back again.
 */
final class PartitionWatermarks {

    /** {@link #advance} has nothing new to emit. */
    static final long NONE = WatermarkGenerator.NONE;

    private final WatermarkGenerator[] generators;
    private final long[] watermarks;
    private final long[] lastRecordNanos;
    private final boolean[] ended;
    private final long idleTimeoutNanos;
    private long emitted = Long.MIN_VALUE;
    private boolean idleEmitted;

    PartitionWatermarks(WatermarkPolicy policy, int partitions, long idleTimeoutNanos, long nowNanos) {
        this.generators = new WatermarkGenerator[partitions];
        this.watermarks = new long[partitions];
        this.lastRecordNanos = new long[partitions];
        this.ended = new boolean[partitions];
        this.idleTimeoutNanos = idleTimeoutNanos;
        for (int i = 0; i < partitions; i++) {
            generators[i] = policy.newGenerator();
            watermarks[i] = Long.MIN_VALUE;
            lastRecordNanos[i] = nowNanos;
        }
    }

    /** Notes an item read from partition slot {@code i}. */
    void observe(int i, Object item, long nowNanos) {
        long wm = generators[i].observe(item);
        if (wm != WatermarkGenerator.NONE) {
            watermarks[i] = wm;
        }
        lastRecordNanos[i] = nowNanos;
        idleEmitted = false;
    }

    /** Partition slot {@code i} reached the end of its stream: it will deliver nothing more. */
    void ended(int i) {
        ended[i] = true;
    }

    /**
     * The watermark to emit now: a higher minimum over the active partitions, {@link Watermark#IDLE}'s
     * timestamp once all are idle (once), or {@link #NONE}.
     *
     * @param recordsWaiting whether partition slot i may have records waiting to be read (a lag
     *                       above zero, or not known yet)
     */
    long advance(long nowNanos, IntPredicate recordsWaiting) {
        long min = Long.MAX_VALUE;
        boolean anyActive = false;
        for (int i = 0; i < watermarks.length; i++) {
            if (!ended[i] && (nowNanos - lastRecordNanos[i] < idleTimeoutNanos || recordsWaiting.test(i))) {
                anyActive = true;
                min = Math.min(min, watermarks[i]);
            }
        }
        if (!anyActive) {
            if (idleEmitted) {
                return NONE;
            }
            idleEmitted = true;
            return Watermark.IDLE.timestamp();
        }
        if (min > emitted && min != Long.MIN_VALUE) {
            emitted = min;
            return min;
        }
        return NONE;
    }
}
