package io.fournines.engine.dag;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.processor.AccumulateByFrameP;
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

/**
 * A silent input marked idle must not hold back the watermark, so windows keep firing; and what it
 * delivered before going quiet must still be in them.
 */
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

    /**
     * Instance 0 emits 0..99 with a watermark after each; instance 1 emits three items of the first
     * window, no watermark that closes it, then goes idle.
     */
    static final class QuietAfterThreeSource extends AbstractProcessor {
        private long next;
        private boolean announcedIdle;

        @Override
        public boolean complete() {
            if (getContext().processorIndex() == 1) {
                while (next < 3 && tryEmit(next + 1)) {
                    next++;
                }
                if (next == 3 && !announcedIdle) {
                    announcedIdle = tryEmit(Watermark.IDLE);
                }
                return false;
            }
            if (next < 100 && tryEmit(next) && tryEmit(new Watermark(next))) {
                next++;
            }
            return false;
        }
    }

    /**
     * The first window stage of the instance whose input went idle holds a partial of the first
     * window; the second stage stops waiting for that instance's watermark, so the partial has to
     * be sent when the input goes idle or the window is emitted without it.
     */
    @Test
    void theFirstStageSendsItsOpenPartialsWhenItsInputGoesIdle() {
        List<Object> results = new CopyOnWriteArrayList<>();
        WindowDefinition tumbling = WindowDefinition.tumbling(10);
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", QuietAfterThreeSource::new).localParallelism(2);
        Vertex accumulate = dag.newVertex("accumulate", () -> new AccumulateByFrameP((Long n) -> "all", (Long n) -> n, tumbling,
                AggregateOperations.counting())).localParallelism(2);
        Vertex combine = dag.newVertex("combine", () -> new SlidingWindowP(tumbling, AggregateOperations.counting(),
                (start, end, key, result) -> new WindowResult<>(start, end, result))).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(results::add)).localParallelism(1);
        dag.edge(Edge.between(source, accumulate).isolated());
        dag.edge(Edge.between(accumulate, combine).allToOne());
        dag.edge(Edge.between(combine, sink));

        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            Job job = engine.newJob(dag);
            await().atMost(10, TimeUnit.SECONDS).until(() -> results.size() == 9);
            job.cancel();
        }
        assertThat(results).first().isEqualTo(new WindowResult<>(0, 10, 13L));
        assertThat(results).element(1).isEqualTo(new WindowResult<>(10, 20, 10L));
    }
}
