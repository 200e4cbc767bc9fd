package io.fournines.engine.job;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.JobFailedException;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class JobLifecycleTest {

    private static Engine engine;

    @BeforeAll
    static void start() {
        engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void aProcessorExceptionFailsTheJobWithThatCause() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.list(IntStream.range(0, 10_000).boxed().toList()))
         .map(i -> {
             if (i == 5_000) {
                 throw new IllegalStateException("bad item " + i);
             }
             return i;
         })
         .writeTo(Sinks.discard());
        Job job = engine.newJob(p);

        assertThatThrownBy(job::join)
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining("vertex 'fused(source(items), map)' failed")
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("bad item 5000");
    }

    @Test
    void theEngineRunsNewJobsAfterOneFailed() {
        aProcessorExceptionFailsTheJobWithThatCause();
        List<Integer> out = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(1, 2, 3)).writeTo(Sinks.list(out));
        engine.newJob(p).join();
        assertThat(out).containsExactlyInAnyOrder(1, 2, 3);
    }

    @Test
    void cancellingAStreamingJobStopsIt() throws Exception {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(100_000, (seq, time) -> seq)).withoutTimestamps().writeTo(Sinks.discard());
        Job job = engine.newJob(p);
        TimeUnit.MILLISECONDS.sleep(200);
        assertThat(job.isDone()).isFalse();

        job.cancel();

        await().atMost(5, TimeUnit.SECONDS).until(job::isDone);
        assertThatThrownBy(job::join).isInstanceOf(CancellationException.class);
    }

    @Test
    void closingTheEngineFailsTheJobsStillRunning() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(1_000, (seq, time) -> seq)).withoutTimestamps().writeTo(Sinks.discard());
        Engine closing = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(1));
        Job job = closing.newJob(p);

        closing.close();

        await().atMost(5, TimeUnit.SECONDS).until(job::isDone);
        assertThatThrownBy(job::join).isInstanceOf(JobFailedException.class).hasRootCauseMessage("the engine was closed while the job was running");
    }

    @Test
    void aProcessorThatFailsToStartFailsTheSubmissionAndTheOthersAreClosed() {
        java.util.concurrent.atomic.AtomicInteger closed = new java.util.concurrent.atomic.AtomicInteger();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(1, 2, 3)).writeTo(Sinks.fromProcessor("broken", () -> new io.fournines.engine.core.AbstractProcessor() {
            @Override
            protected void init(Context context) {
                if (context.processorIndex() == 1) {
                    throw new IllegalStateException("no connection");
                }
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        }));

        assertThatThrownBy(() -> engine.newJob(p)).hasMessageContaining("no connection");
        assertThat(closed).as("the sink instance initialised before the failure").hasValue(1);
    }

    @Test
    void idleWorkersBlockInsteadOfPolling() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(1, 2, 3)).writeTo(Sinks.discard());
        engine.newJob(p).join();

        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> {
            List<Thread.State> states = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("fournines-worker-"))
                    .map(Thread::getState)
                    .toList();
            assertThat(states).isNotEmpty().allMatch(s -> s == Thread.State.WAITING, "untimed park (WAITING)");
        });
    }
}
