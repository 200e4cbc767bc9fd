package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.PacedSlice;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.model.Event;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;
import org.apache.flink.streaming.api.watermark.Watermark;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The paced NEXMark generator as a Flink source, one {@link PacedSlice} per subtask. Flink runs each
 * source subtask in its own thread, so between due events the thread parks (at most 1 ms; events
 * keep their scheduled time, so a late wake-up shows as latency).
 *
 * <p>Windowed queries get events timestamped with their {@code dateTime} and a watermark after
 * every batch that advances event time: Flink's watermark {@code w} promises no more events at or
 * before {@code w}, so it is the newest event's time minus 1 ms (the next event may share its
 * millisecond). The legacy {@code SourceFunction} API is deprecated in 1.20 but is the one that
 * lets a source pace itself and emit its own watermarks without a split enumerator.
 */
final class PacedFlinkSource<T> extends RichParallelSourceFunction<T> {
    private static final long serialVersionUID = 1L;
    /** Events per turn under the checkpoint lock. */
    static final int BATCH = 1024;
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final GeneratorSpec spec;
    private final RunRef run;
    private final boolean timed;
    private volatile boolean running = true;

    private PacedFlinkSource(GeneratorSpec spec, RunRef run, boolean timed) {
        this.spec = spec;
        this.run = run;
        this.timed = timed;
    }

    /** Events with event time and watermarks, for windowed queries. */
    static PacedFlinkSource<Event> events(GeneratorSpec spec, RunRef run) {
        return new PacedFlinkSource<>(spec, run, false);
    }

    /** Events with their exact scheduled time and no event time, for per-event queries. */
    static PacedFlinkSource<Timed<Event>> timedEvents(GeneratorSpec spec, RunRef run) {
        return new PacedFlinkSource<>(spec, run, true);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void run(SourceContext<T> ctx) {
        PacedSlice slice = new PacedSlice(spec, run.get(), getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
        long[] newest = {Long.MIN_VALUE};
        long watermark = Long.MIN_VALUE;
        while (running && !slice.exhausted()) {
            int emitted;
            synchronized (ctx.getCheckpointLock()) {
                if (timed) {
                    emitted = slice.emitDue((event, scheduled) -> ctx.collect((T) new Timed<>(event, scheduled)), BATCH);
                } else {
                    emitted = slice.emitDue((event, scheduled) -> {
                        ctx.collectWithTimestamp((T) event, event.dateTime());
                        newest[0] = event.dateTime();
                    }, BATCH);
                    if (newest[0] - 1 > watermark) {
                        watermark = newest[0] - 1;
                        ctx.emitWatermark(new Watermark(watermark));
                    }
                }
            }
            if (emitted == 0) {
                LockSupport.parkNanos(Math.min(Math.max(slice.nanosUntilNext(), 1), MAX_PARK_NANOS));
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
