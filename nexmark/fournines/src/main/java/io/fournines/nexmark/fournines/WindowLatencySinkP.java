package io.fournines.nexmark.fournines;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.SinkWatermarks;
import io.fournines.nexmark.query.WindowedResult;

import java.util.function.ToLongFunction;

/**
 * Window latency on the reference engine: each result goes to the run, which records its window's
 * latency; each watermark goes to the run through the execution's {@link SinkWatermarks}, the one
 * completion rule every engine's sinks follow.
 */
final class WindowLatencySinkP extends AbstractProcessor {

    private final RunContext run;
    private final SinkWatermarks watermarks;
    private final ToLongFunction<Object> windowEnd;
    private int index;

    private WindowLatencySinkP(RunContext run, SinkWatermarks watermarks, ToLongFunction<Object> windowEnd) {
        this.run = run;
        this.watermarks = watermarks;
        this.windowEnd = windowEnd;
    }

    /** The sink of one execution for {@link WindowedResult}s, one instance per worker thread; a restart makes a new one. */
    static <R> Sink<R> sink(RunContext run, int threads) {
        return sink(run, threads, result -> ((WindowedResult) result).end());
    }

    /** {@link #sink(RunContext, int)} for results that do not carry their window: {@code windowEnd} gives its end. */
    @SuppressWarnings("unchecked")
    static <R> Sink<R> sink(RunContext run, int threads, ToLongFunction<? super R> windowEnd) {
        SinkWatermarks watermarks = new SinkWatermarks(threads);
        return Sinks.fromProcessor("window-latency", () -> new WindowLatencySinkP(run, watermarks, (ToLongFunction<Object>) windowEnd));
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
        run.windowResult(item, windowEnd.applyAsLong(item));
        return true;
    }

    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        // The idle marker says the input went quiet, not that time passed: no window completes.
        if (watermark.timestamp() != Watermark.IDLE.timestamp()) {
            run.sinkWatermark(watermarks, index, watermark.timestamp());
        }
        return true;
    }

    /**
     * All inputs are done: at once for an instance that no data can reach (the spare instances
     * behind a non-keyed window's single combining instance), which must stop holding the others back.
     */
    @Override
    public boolean complete() {
        run.sinkEnded(watermarks, index);
        return true;
    }
}
