package io.fournines.engine.dag;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.processor.ForEachSinkP;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A watermark forwarded to a broadcast edge whose queues are not all free is retried; each queue
 * must still get it once (a second copy is a watermark going back, which fails the consumer).
 */
class RetriedWatermarkTest {

    /** Items and a rising watermark, as fast as the queues take them. */
    static final class Source extends AbstractProcessor {
        private long next;
        private boolean itemSent;

        @Override
        public boolean complete() {
            while (next < 2_000) {
                if (!itemSent && !tryEmit(next)) {
                    return false;
                }
                itemSent = true;
                if (!tryEmit(new Watermark(next))) {
                    return false;
                }
                itemSent = false;
                next++;
            }
            return true;
        }
    }

    /** Passes items and watermarks on (through the tasklet, which retries refused watermarks). */
    static final class Forward extends AbstractProcessor {
        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            return tryEmit(item);
        }
    }

    @Test
    void aRefusedWatermarkIsNotDuplicatedInTheQueuesThatTookIt() {
        List<Object> fast = new CopyOnWriteArrayList<>();
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", Source::new).localParallelism(1);
        Vertex forward = dag.newVertex("forward", Forward::new).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(item -> {
            // The second instance is slow, so its queue fills while the first one's does not.
            LockSupport.parkNanos(50_000);
            fast.add(item);
        })).localParallelism(2);
        dag.edge(Edge.between(source, forward).queueSize(2));
        dag.edge(Edge.between(forward, sink).broadcast().queueSize(2));

        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            engine.newJob(dag).join(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the job did not finish", e);
        }
        assertThat(fast).hasSize(2 * 2_000);
    }
}
