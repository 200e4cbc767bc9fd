package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.query.WindowedResult;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;

/** The latency sinks: every result goes to the run, which records it the same way for every engine. */
final class FlinkSinks {

    private FlinkSinks() {
    }

    /** Per-event results: latency against each event's scheduled time. */
    static final class PerEvent extends RichSinkFunction<Timed<?>> {
        private static final long serialVersionUID = 1L;
        private final RunRef run;

        PerEvent(RunRef run) {
            this.run = run;
        }

        @Override
        public void invoke(Timed<?> result, Context context) {
            run.get().perEventResult(result.item(), result.scheduledEpochNanos());
        }
    }

    /** Window results: first result minus window end; watermarks complete the windows. */
    static final class Windows<R extends WindowedResult> extends RichSinkFunction<R> {
        private static final long serialVersionUID = 1L;
        private final RunRef run;
        private int index;
        private int instances;

        Windows(RunRef run) {
            this.run = run;
        }

        @Override
        public void open(Configuration parameters) {
            index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            instances = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        }

        @Override
        public void invoke(R result, Context context) {
            run.get().windowResult(result);
        }

        /** Flink's watermark w: no more events at or before w, so windows ending at or before w + 1 are done. */
        @Override
        public void writeWatermark(Watermark watermark) {
            long w = watermark.getTimestamp();
            run.get().sinkWatermark(index, instances, w == Long.MAX_VALUE ? w : w + 1);
        }
    }

    /** Counts the events a window dropped as late (its late-data side output). */
    static final class LateEvents<T> extends RichSinkFunction<T> {
        private static final long serialVersionUID = 1L;
        private final RunRef run;

        LateEvents(RunRef run) {
            this.run = run;
        }

        @Override
        public void invoke(T late, Context context) {
            run.get().lateEvents(1);
        }
    }
}
