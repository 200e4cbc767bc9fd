package io.fournines.engine.dag;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.processor.ForEachSinkP;
import io.fournines.engine.processor.SlidingWindowP;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A silent input marked idle must not hold back the watermark, so windows keep firing. */
class IdleInputTest {

    /** Instance 0 emits a partial frame and a watermark per step; instance 1 goes quiet and says so. */
    static final class TwoFacedSource extends AbstractProcessor {
        private long frameEnd = 10;
        private boolean announcedIdle;

        @Override
        public boolean complete() {
            if (getContext().processorIndex() == 1) {
                if (!announcedIdle) {
                    announcedIdle = tryEmit(Watermark.IDLE);
                }
                return false;
            }
            if (frameEnd <= 100 && tryEmit(new KeyedFrame(frameEnd, "k", new io.fournines.engine.aggregate.LongAccumulator(1)))
                    && tryEmit(new Watermark(frameEnd))) {
                frameEnd += 10;
            }
            return false;
        }
    }

    @Test
    void windowsFireWhileOneSourceInstanceIsIdle() {
        List<Object> results = new CopyOnWriteArrayList<>();
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", TwoFacedSource::new).localParallelism(2);
        Vertex window = dag.newVertex("window", () -> new SlidingWindowP(WindowDefinition.tumbling(10), AggregateOperations.counting(),
                (start, end, key, result) -> new WindowResult<>(start, end, result))).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(results::add)).localParallelism(1);
        dag.edge(Edge.between(source, window).allToOne());
        dag.edge(Edge.between(window, sink));

        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            Job job = engine.newJob(dag);
            await().atMost(10, TimeUnit.SECONDS).until(() -> results.size() == 10);
            job.cancel();
        }
        assertThat(results).first().isEqualTo(new WindowResult<>(0, 10, 1L));
        assertThat(results).last().isEqualTo(new WindowResult<>(90, 100, 1L));
    }
}
