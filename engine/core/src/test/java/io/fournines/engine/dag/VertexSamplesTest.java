package io.fournines.engine.dag;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.VertexSamples;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.processor.ForEachSinkP;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sampler's view of jobs with a slow vertex: busy, its input queue full, its producer
 * backpressured, its consumer mostly idle. Shares of samples, so a loaded machine slows the jobs
 * without changing which vertex the samples find where; but busy is wall time in a call, which
 * includes a worker preempted in it, so only a vertex that hardly runs is held to a low busy share.
 */
class VertexSamplesTest {

    /** A second of samples: 50 at least. */
    private static final long ENOUGH_SAMPLED_MICROS = 1_000_000;

    /** A processor on a cooperative worker, or on a thread of its own. */
    abstract static class Placed extends AbstractProcessor {
        private final boolean cooperative;

        Placed(boolean cooperative) {
            this.cooperative = cooperative;
        }

        @Override
        public boolean isCooperative() {
            return cooperative;
        }
    }

    /** Emits numbers for as long as its outbox takes them. */
    static final class EndlessSource extends Placed {
        private long next;

        EndlessSource(boolean cooperative) {
            super(cooperative);
        }

        @Override
        public boolean complete() {
            while (tryEmit(next)) {
                next++;
            }
            return false;
        }
    }

    /** Spends 100 µs on each item, the work of a heavy stage. */
    static final class SlowP extends Placed {
        SlowP(boolean cooperative) {
            super(cooperative);
        }

        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(100);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            return tryEmit(item);
        }
    }

    /** The source on a thread of its own keeps the slow vertex's queue full while that vertex works through its inbox. */
    @Test
    void aSlowVertexIsBusyWithItsInputQueueFull() throws Exception {
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", () -> new EndlessSource(false)).localParallelism(1);
        Vertex slow = dag.newVertex("slow", () -> new SlowP(true)).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(item -> { })).localParallelism(1);
        dag.edge(Edge.between(source, slow));
        // Room for more than the slow vertex's whole inbox: it is never refused.
        dag.edge(Edge.between(slow, sink).queueSize(1 << 16));

        Map<String, Long> m = runUntilSampled(dag, "slow");

        assertThat(share(m, "slow", VertexSamples.BUSY)).as("slow: busy").isGreaterThan(0.5);
        assertThat(share(m, "slow", VertexSamples.BACKPRESSURED)).as("slow: backpressured").isLessThan(0.5);
        assertThat(fill(m, "slow")).as("slow: input queue fill").isGreaterThan(0.5);
        assertThat(share(m, "sink", VertexSamples.BUSY)).as("sink: busy").isLessThan(0.5);
        assertThat(fill(m, "sink")).as("sink: input queue fill").isLessThan(0.5);
        assertThat(m.getOrDefault("source." + VertexSamples.SAMPLED, 0L)).as("a vertex on a thread of its own is not sampled").isZero();
    }

    /** The consumer on a thread of its own is slow: every call of the source finds its queue full. */
    @Test
    void aSourceAheadOfASlowConsumerIsBackpressured() throws Exception {
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", () -> new EndlessSource(true)).localParallelism(1);
        Vertex slow = dag.newVertex("slow", () -> new SlowP(false)).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(item -> { })).localParallelism(1);
        dag.edge(Edge.between(source, slow));
        dag.edge(Edge.between(slow, sink));

        Map<String, Long> m = runUntilSampled(dag, "source");

        assertThat(share(m, "source", VertexSamples.BACKPRESSURED)).as("source: backpressured").isGreaterThan(0.5);
        assertThat(m.get("source." + VertexSamples.QUEUE_ROOM)).as("a source has no input queues").isZero();
    }

    /** Works the first 5 ms of every 20 ms of the clock, like a window stage firing every slide. */
    static final class BurstySource extends AbstractProcessor {
        private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(20);
        private static final long BURST = TimeUnit.MILLISECONDS.toNanos(5);

        @Override
        public boolean complete() {
            while (System.nanoTime() % PERIOD < BURST) {
                Thread.onSpinWait();
            }
            return false;
        }

        /** The next burst's start: the worker wakes for it, as for a window stage's next slide. */
        @Override
        public long nextDeadlineNanos() {
            long now = System.nanoTime();
            return now - now % PERIOD + PERIOD;
        }
    }

    /**
     * A sampler with a fixed 20 ms period would find such work at the same phase every time, busy
     * always or never; at random intervals it finds it busy about a quarter of the time.
     */
    @Test
    void workInBurstsEverySlideIsFoundBusyForItsShareOfTheTime() throws Exception {
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", BurstySource::new).localParallelism(1);
        Vertex sink = dag.newVertex("sink", () -> new ForEachSinkP(item -> { })).localParallelism(1);
        dag.edge(Edge.between(source, sink));

        Map<String, Long> m = runUntilSampled(dag, "source", 4 * ENOUGH_SAMPLED_MICROS);

        assertThat(share(m, "source", VertexSamples.BUSY)).as("source: busy").isBetween(0.12, 0.45);
    }

    private static Map<String, Long> runUntilSampled(Dag dag, String vertex) throws InterruptedException {
        return runUntilSampled(dag, vertex, ENOUGH_SAMPLED_MICROS);
    }

    private static Map<String, Long> runUntilSampled(Dag dag, String vertex, long enough) throws InterruptedException {
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(1))) {
            Job job = engine.newJob(dag);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (job.metrics().getOrDefault(vertex + "." + VertexSamples.SAMPLED, 0L) < enough && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Map<String, Long> m = job.metrics();
            job.cancel();
            assertThat(m.get(vertex + "." + VertexSamples.SAMPLED)).as("time sampled of " + vertex).isGreaterThanOrEqualTo(enough);
            return m;
        }
    }

    private static double share(Map<String, Long> m, String vertex, String counter) {
        return (double) m.get(vertex + "." + counter) / m.get(vertex + "." + VertexSamples.SAMPLED);
    }

    private static double fill(Map<String, Long> m, String vertex) {
        return (double) m.get(vertex + "." + VertexSamples.QUEUED) / m.get(vertex + "." + VertexSamples.QUEUE_ROOM);
    }
}
