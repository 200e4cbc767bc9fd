package io.fournines.nexmark.fournines;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.nexmark.driver.SinkWatermarks;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.query.WindowedResult;

/**
 * The active-active copy's second sink, beside the latency sink: every result goes to the result
 * consumer through the member's {@link ResultForwarder}, and so does the member's window
 * completion (the lowest watermark over its instances, coalesced as the latency sink does), which
 * the consumer needs to know when a copy's window is whole. Lines (tab-separated):
 * {@code R end key value} for a window result, {@code E scheduledNanos key} for a per-event
 * result, {@code W end} for "windows ending at or before end are complete on this member".
 */
final class ForwardResultSinkP extends AbstractProcessor {

    private final ResultForwarder forwarder;
    private final SinkWatermarks watermarks;
    private int index;
    /** The completion line waiting for room in the forwarder's queue, or null. */
    private String pendingCompletion;
    private long sentCompletion = Long.MIN_VALUE;

    ForwardResultSinkP(ResultForwarder forwarder, SinkWatermarks watermarks) {
        this.forwarder = forwarder;
        this.watermarks = watermarks;
    }

    @Override
    protected void init(Context context) {
        index = context.processorIndex();
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (!flushCompletion()) {
            return false;
        }
        if (item instanceof WindowedResult windowed) {
            ResultKey k = ResultKey.of(item);
            return forwarder.offer("R\t" + windowed.end() + "\t" + k.key() + "\t" + k.value());
        }
        Timed<?> scheduled = (Timed<?>) item;
        return forwarder.offer("E\t" + scheduled.scheduledEpochNanos() + "\t" + ResultKey.of(scheduled.item()).key());
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        if (watermark.timestamp() != Watermark.IDLE.timestamp()) {
            completeUpTo(watermarks.advance(index, watermark.timestamp()));
        }
        return flushCompletion();
    }

    @Override
    public boolean complete() {
        completeUpTo(watermarks.ended(index));
        return flushCompletion();
    }

    /** {@link SinkWatermarks#ALL_ENDED}: no window result can reach this member's sinks; it holds nothing back. */
    private void completeUpTo(long end) {
        if (end != SinkWatermarks.NONE && end > sentCompletion) {
            sentCompletion = end;
            pendingCompletion = "W\t" + end;
        }
    }

    private boolean flushCompletion() {
        if (pendingCompletion != null && forwarder.offer(pendingCompletion)) {
            pendingCompletion = null;
        }
        return pendingCompletion == null;
    }
}
