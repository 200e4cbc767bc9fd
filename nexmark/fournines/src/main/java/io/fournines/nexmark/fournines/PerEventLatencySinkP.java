package io.fournines.nexmark.fournines;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.Timed;

/** Per-event latency on the reference engine: each result goes to the run with its event's scheduled time. */
final class PerEventLatencySinkP extends AbstractProcessor {

    private final RunContext run;

    private PerEventLatencySinkP(RunContext run) {
        this.run = run;
    }

    static <R> Sink<Timed<R>> sink(RunContext run) {
        return Sinks.fromProcessor("latency", () -> new PerEventLatencySinkP(run));
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        Timed<?> timed = (Timed<?>) item;
        run.perEventResult(timed.item(), timed.scheduledEpochNanos());
        return true;
    }
}
