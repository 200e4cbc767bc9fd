package io.fournines.nexmark.jet;

import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.core.Watermark;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.Sinks;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.query.WindowedResult;

/** The latency sinks: every result goes to the run, which records it the same way for every engine. */
final class JetSinks {

    private JetSinks() {
    }

    /** Per-event results: latency against each event's scheduled time. */
    static Sink<Timed<?>> perEvent(RunRef run) {
        return Sinks.fromProcessor("latency", ProcessorMetaSupplier.of(() -> new PerEventP(run)));
    }

    /** Window results: first result minus window end; watermarks complete the windows. */
    static Sink<WindowedResult> windows(RunRef run) {
        return Sinks.fromProcessor("window-latency", ProcessorMetaSupplier.of(() -> new WindowP(run)));
    }

    private static final class PerEventP extends AbstractProcessor {
        private final RunRef run;

        PerEventP(RunRef run) {
            this.run = run;
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            Timed<?> timed = (Timed<?>) item;
            run.get().perEventResult(timed.item(), timed.scheduledEpochNanos());
            return true;
        }
    }

    private static final class WindowP extends AbstractProcessor {
        private final RunRef run;
        private int index;
        private int instances;

        WindowP(RunRef run) {
            this.run = run;
        }

        @Override
        protected void init(Context context) {
            index = context.globalProcessorIndex();
            instances = context.totalParallelism();
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            run.get().windowResult((WindowedResult) item);
            return true;
        }

        @Override
        public boolean tryProcessWatermark(Watermark watermark) {
            // Jet's watermark w: no more events before w, so windows ending at or before w are done.
            run.get().sinkWatermark(index, instances, watermark.timestamp());
            return true;
        }

        @Override
        public boolean complete() {
            run.get().sinkEnded(index, instances);
            return true;
        }
    }
}
