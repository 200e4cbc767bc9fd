package io.fournines.engine.execution;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker idles with each {@link Idling}: it parks or not as the strategy says, and still picks up work that comes. */
class WorkerIdlingTest {

    private static final long MIN_PARK = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longer than {@link #awaitDone} waits: a worker that parks this long was not woken. */
    private static final long MAX_PARK = TimeUnit.SECONDS.toNanos(30);

    private Worker worker;

    @AfterEach
    void shutDown() {
        if (worker != null) {
            worker.shutdown();
        }
    }

    @Test
    void parkBackoffParksAndIsWokenByAProducer() throws Exception {
        WaitingTasklet tasklet = new WaitingTasklet();
        Thread thread = start(Idling.PARK_BACKOFF, tasklet);
        assertThat(statesWhileIdle(thread)).contains(Thread.State.TIMED_WAITING);
        // A producer hands it data and wakes it, as a queue write does, cutting its park short.
        tasklet.work.set(true);
        worker.parker().wakeIfArmed();
        awaitDone(tasklet, thread);
    }

    @Test
    void busySpinNeverParks() throws Exception {
        WaitingTasklet tasklet = new WaitingTasklet();
        Thread thread = start(Idling.BUSY_SPIN, tasklet);
        // A thread the OS took the core from is still RUNNABLE: this holds on a loaded machine too.
        assertThat(statesWhileIdle(thread)).containsOnly(Thread.State.RUNNABLE);
        tasklet.work.set(true);
        awaitDone(tasklet, thread);
    }

    @Test
    void jetBackoffParksWithoutBeingArmedAndPollsForWork() throws Exception {
        WaitingTasklet tasklet = new WaitingTasklet();
        Thread thread = start(Idling.JET_BACKOFF, tasklet);
        assertThat(statesWhileIdle(thread)).contains(Thread.State.TIMED_WAITING);
        // Parks of 25 µs to 500 µs: far fewer rounds than busy spinning's millions (a loaded machine only lowers the count).
        assertThat(roundsIn(tasklet, 100)).isLessThan(100_000L);
        // Nothing wakes it (never armed): it finds the work by polling.
        tasklet.work.set(true);
        awaitDone(tasklet, thread);
    }

    @Test
    void spelledAsScenarioFilesSpellIt() {
        for (Idling idling : Idling.values()) {
            assertThat(Idling.fromSpelled(idling.spelled())).isEqualTo(idling);
        }
        assertThat(Idling.JET_BACKOFF.spelled()).isEqualTo("jet-backoff");
        assertThat(ExecutionConfig.defaults().idling()).isEqualTo(Idling.PARK_BACKOFF);
    }

    private Thread start(Idling idling, WaitingTasklet tasklet) {
        worker = new Worker("test-worker-" + idling.spelled(), idling, MIN_PARK, MAX_PARK, false);
        Thread thread = worker.start();
        worker.add(tasklet);
        // Until it takes the tasklet in, a worker with none waits for one whatever its idling: not what is tested.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (tasklet.calls.get() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(tasklet.calls.get()).as("the worker took the tasklet in").isPositive();
        return thread;
    }

    /** The worker thread's states sampled over 200 ms of having nothing to do. */
    private static Set<Thread.State> statesWhileIdle(Thread thread) throws InterruptedException {
        Set<Thread.State> seen = EnumSet.noneOf(Thread.State.class);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < end) {
            seen.add(thread.getState());
            Thread.sleep(0, 100_000);
        }
        return seen;
    }

    /** The tasklet's calls, one a round, over {@code millis} ms. */
    private static long roundsIn(WaitingTasklet tasklet, long millis) throws InterruptedException {
        long before = tasklet.calls.get();
        Thread.sleep(millis);
        return tasklet.calls.get() - before;
    }

    private static void awaitDone(WaitingTasklet tasklet, Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!tasklet.closed.get() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(tasklet.closed).as("the tasklet ran to done on " + thread.getName()).isTrue();
    }

    /** Makes no progress until it is given work, then is done; counts its calls. */
    private static final class WaitingTasklet implements Tasklet {
        final AtomicBoolean work = new AtomicBoolean();
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicLong calls = new AtomicLong();

        @Override
        public ProgressState call() {
            calls.incrementAndGet();
            return work.get() ? ProgressState.DONE : ProgressState.NO_PROGRESS;
        }

        @Override
        public boolean isCooperative() {
            return true;
        }

        @Override
        public long nextDeadlineNanos() {
            return Long.MAX_VALUE;
        }

        @Override
        public void close() {
            closed.set(true);
        }

        @Override
        public void fail(Throwable cause) {
        }
    }
}
