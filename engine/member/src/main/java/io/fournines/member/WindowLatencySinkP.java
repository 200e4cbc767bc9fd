package io.fournines.member;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
import io.fournines.nexmark.query.WindowedResult;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records window latency: each result tells the recorder its window emitted now; each watermark
 * says the windows ending at or before it are complete at this instance. A window is complete only
 * when every sink instance says so (its results may reach any of them), so the instances' watermarks
 * are coalesced in a {@link SinkWatermarks} they share; an instance whose input has ended no longer counts.
 */
final class WindowLatencySinkP extends AbstractProcessor {

    private final WindowLatencyRecorder recorder;
    private final SinkWatermarks watermarks;
    private int index;

    WindowLatencySinkP(WindowLatencyRecorder recorder, SinkWatermarks watermarks) {
        this.recorder = recorder;
        this.watermarks = watermarks;
    }

    @Override
    protected void init(Context context) {
        if (context.parallelism() != watermarks.instances()) {
            throw new IllegalStateException("window latency sink has " + context.parallelism() + " instances, its watermarks were sized for "
                    + watermarks.instances());
        }
        index = context.processorIndex();
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        recorder.resultEmitted(((WindowedResult) item).end());
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        // The idle marker says the input went quiet, not that time passed: no window completes.
        if (watermark.timestamp() != Watermark.IDLE.timestamp()) {
            long complete = watermarks.advance(index, watermark.timestamp());
            if (complete != Long.MIN_VALUE) {
                recorder.windowsCompleteUpTo(complete);
            }
        }
        return true;
    }

    /**
     * All inputs are done. Happens at once for an instance that no data can reach (the spare
     * instances behind a non-keyed window's single combining instance): it must stop holding
     * the others' completion back. When every instance here has ended, no window completed: the
     * recorder outlives this execution, and after a restart elsewhere the combining instance may
     * be one of this member's, whose windows must not count as complete already.
     */
    @Override
    public boolean complete() {
        long complete = watermarks.advance(index, Long.MAX_VALUE);
        if (complete != Long.MIN_VALUE && complete != Long.MAX_VALUE) {
            recorder.windowsCompleteUpTo(complete);
        }
        return true;
    }

    /** The lowest watermark over all sink instances. */
    static final class SinkWatermarks {
        private final AtomicLongArray byInstance;

        SinkWatermarks(int instances) {
            byInstance = new AtomicLongArray(instances);
            for (int i = 0; i < instances; i++) {
                byInstance.set(i, Long.MIN_VALUE);
            }
        }

        int instances() {
            return byInstance.length();
        }

        /** Sets instance {@code i}'s watermark; returns the minimum over all instances. */
        long advance(int i, long watermark) {
            byInstance.set(i, watermark);
            long min = Long.MAX_VALUE;
            for (int j = 0; j < byInstance.length(); j++) {
                min = Math.min(min, byInstance.get(j));
            }
            return min;
        }
    }
}
