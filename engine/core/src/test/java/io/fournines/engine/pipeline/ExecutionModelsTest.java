package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Clocks;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.BatchScheduler.StageTimes;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.engine.window.WindowResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One job under the three execution models: the same results, and each model's own schedule. */
class ExecutionModelsTest extends TestEngines {

    /** Its event time comes from its sequence, so every run has the same windows whenever it starts. */
    record Event(long sequence, long scheduledEpochNanos) {
        long timeMs() {
            return sequence * 1000 / RATE;
        }
    }

    record Seen(Event event, long seenEpochNanos) {
    }

    private static final long BATCH_MS = 50;
    private static final int RATE = 20_000;
    private static final int EVENTS = 12_000;

    static Stream<ExecutionModel> models() {
        return Stream.of(ExecutionModel.CONTINUOUS, ExecutionModel.microBatch(Duration.ofMillis(BATCH_MS)),
                ExecutionModel.group(Duration.ofMillis(BATCH_MS), 4));
    }

    /** Windows counted per key over a paced source: two stages (the partials are shuffled to their key's owner). */
    private static Pipeline windowedCounts(List<KeyedWindowResult<Long, Long>> results) {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(RATE, EVENTS, (seq, time) -> new Event(seq, time), new ScheduleMonitor()))
         .withTimestamps(Event::timeMs, 0)
         .groupingKey(e -> e.sequence() % 7)
         .window(WindowDefinition.sliding(200, 100))
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(results));
        return p;
    }

    private static Job run(Pipeline p, ExecutionModel model) {
        return engine.newJob(p, JobConfig.defaults().executing(model));
    }

    /** A job of under a second: one that has not ended in a minute is stuck, and fails the test instead of hanging it. */
    private static void finish(Job job) {
        try {
            job.join(1, TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            job.cancel();
            throw new AssertionError("the job did not end within a minute", e);
        }
    }

    @Test
    void everyModelGivesTheSameWindows() {
        Map<ExecutionModel.Kind, HashSet<KeyedWindowResult<Long, Long>>> byModel = models().collect(Collectors.toMap(ExecutionModel::kind, model -> {
            List<KeyedWindowResult<Long, Long>> results = new ArrayList<>();
            finish(run(windowedCounts(results), model));
            assertThat(results).doesNotHaveDuplicates();
            return new HashSet<>(results);
        }));
        HashSet<KeyedWindowResult<Long, Long>> continuous = byModel.get(ExecutionModel.Kind.CONTINUOUS);
        assertThat(continuous.stream().mapToLong(KeyedWindowResult::result).sum()).isEqualTo(2L * EVENTS);
        assertThat(byModel.get(ExecutionModel.Kind.MICRO_BATCH)).isEqualTo(continuous);
        assertThat(byModel.get(ExecutionModel.Kind.GROUP)).isEqualTo(continuous);
    }

    /**
     * Exactly-once snapshots every 7 ms through 50 ms micro-batches: a source may put a barrier after
     * its batch's marker, where the next stage's input waits for the next launch, while another put
     * it before; the snapshot must not wait for a launch that waits for the snapshot.
     */
    @Test
    void exactlyOnceSnapshotsRunThroughMicroBatches() {
        List<KeyedWindowResult<Long, Long>> continuous = new ArrayList<>();
        finish(run(windowedCounts(continuous), ExecutionModel.CONTINUOUS));
        for (int attempt = 0; attempt < 3; attempt++) {
            List<KeyedWindowResult<Long, Long>> results = new ArrayList<>();
            JobConfig config = JobConfig.snapshotting(ProcessingGuarantee.EXACTLY_ONCE, Duration.ofMillis(7), new InMemorySnapshotStore())
                    .executing(ExecutionModel.microBatch(Duration.ofMillis(BATCH_MS)));
            Job job = engine.newJob(windowedCounts(results), config);
            finish(job);
            assertThat(job.committedSnapshotCount()).isGreaterThan(3);
            assertThat(new HashSet<>(results)).isEqualTo(new HashSet<>(continuous));
        }
    }

    /** A global window: its partials go to one instance over an all-to-one edge, whose other instances get no input at all. */
    @Test
    void everyModelGivesTheSameGlobalWindows() {
        Map<ExecutionModel.Kind, HashSet<WindowResult<Long>>> byModel = models().collect(Collectors.toMap(ExecutionModel::kind, model -> {
            List<WindowResult<Long>> results = new ArrayList<>();
            Pipeline p = Pipeline.create();
            p.readFrom(Sources.generator(RATE, EVENTS, (seq, time) -> new Event(seq, time), new ScheduleMonitor()))
             .withTimestamps(Event::timeMs, 0)
             .window(WindowDefinition.tumbling(100))
             .aggregate(AggregateOperations.counting())
             .writeTo(Sinks.list(results));
            finish(run(p, model));
            return new HashSet<>(results);
        }));
        HashSet<WindowResult<Long>> continuous = byModel.get(ExecutionModel.Kind.CONTINUOUS);
        assertThat(continuous.stream().mapToLong(WindowResult::result).sum()).isEqualTo(EVENTS);
        assertThat(byModel.get(ExecutionModel.Kind.MICRO_BATCH)).isEqualTo(continuous);
        assertThat(byModel.get(ExecutionModel.Kind.GROUP)).isEqualTo(continuous);
    }

    /** A batch is emitted whole once its time is over: no event is seen before its batch's end (continuous: before it is due). */
    @ParameterizedTest
    @MethodSource("models")
    void anEventIsSeenOnlyOnceItsBatchIsOver(ExecutionModel model) {
        List<Seen> seen = new ArrayList<>();
        long origin = Clocks.pair()[1];
        long nanoOrigin = System.nanoTime();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(RATE, EVENTS, (seq, time) -> new Event(seq, time), new ScheduleMonitor()))
         .withoutTimestamps()
         .map(e -> new Seen(e, origin + (System.nanoTime() - nanoOrigin)))
         .writeTo(Sinks.list(seen));
        finish(run(p, model));
        assertThat(seen).hasSize(EVENTS);
        long batchNanos = BATCH_MS * 1_000_000;
        long first = seen.stream().mapToLong(s -> s.event().scheduledEpochNanos()).min().orElseThrow();
        long firstEnd = (first / batchNanos + 1) * batchNanos;
        // The test reads the clocks apart from the source: a skew of microseconds between the two.
        long skew = 1_000_000;
        for (Seen s : seen) {
            long scheduled = s.event().scheduledEpochNanos();
            long due = model.batched() ? Math.max(firstEnd, (scheduled / batchNanos + 1) * batchNanos) : scheduled;
            assertThat(s.seenEpochNanos()).as("event %d scheduled at %d", s.event().sequence(), scheduled).isGreaterThanOrEqualTo(due - skew);
        }
    }

    @Test
    void microBatchLaunchesEachStageOnceTheOneBeforeFinishedTheBatch() {
        List<StageTimes> times = stageTimes(ExecutionModel.microBatch(Duration.ofMillis(BATCH_MS)));
        Map<Long, List<StageTimes>> byBatch = times.stream().collect(Collectors.groupingBy(StageTimes::batch));
        assertThat(byBatch).hasSizeGreaterThanOrEqualTo((int) (EVENTS * 1000L / RATE / BATCH_MS));
        long previousDone = 0;
        for (long n = 0; n < byBatch.size(); n++) {
            List<StageTimes> stages = byBatch.get(n);
            assertThat(stages).extracting(StageTimes::stage).containsExactly(0, 1);
            StageTimes first = stages.get(0);
            StageTimes second = stages.get(1);
            assertThat(first.launchedMicros()).isGreaterThanOrEqualTo(previousDone);
            assertThat(first.startedMicros()).isBetween(first.launchedMicros(), first.doneMicros());
            assertThat(first.finishedMicros()).isBetween(first.startedMicros(), first.doneMicros());
            assertThat(second.launchedMicros()).isGreaterThanOrEqualTo(first.doneMicros());
            assertThat(second.startedMicros()).isBetween(second.launchedMicros(), second.doneMicros());
            assertThat(second.finishedMicros()).isBetween(second.startedMicros(), second.doneMicros());
            previousDone = second.doneMicros();
        }
    }

    @Test
    void groupSchedulingLaunchesEveryStageOfAGroupAtOnceAndWaitsOnlyAtItsEnd() {
        int group = 4;
        List<StageTimes> times = stageTimes(ExecutionModel.group(Duration.ofMillis(BATCH_MS), group));
        Map<Long, List<StageTimes>> byBatch = times.stream().collect(Collectors.groupingBy(StageTimes::batch));
        long previousGroupDone = 0;
        for (long n = 0; n < byBatch.size(); n++) {
            List<StageTimes> stages = byBatch.get(n);
            // Pre-scheduled: the second stage is not launched after the first finished, but with it.
            assertThat(stages.stream().map(StageTimes::launchedMicros).distinct()).hasSize(1);
            if (n % group == 0) {
                assertThat(stages.get(0).launchedMicros()).isGreaterThanOrEqualTo(previousGroupDone);
            }
            if (n % group == group - 1) {
                previousGroupDone = times.stream().filter(t -> t.batch() / group == stages.get(0).batch() / group)
                        .mapToLong(StageTimes::doneMicros).max().orElseThrow();
            }
        }
    }

    private static List<StageTimes> stageTimes(ExecutionModel model) {
        List<KeyedWindowResult<Long, Long>> results = new ArrayList<>();
        Job job = run(windowedCounts(results), model);
        finish(job);
        List<StageTimes> times = new ArrayList<>();
        job.drainBatchTimes(times::add);
        assertThat(times).isNotEmpty();
        return times;
    }

    /** A sink that never takes an item: the batch it holds is never done, and the job fails saying so instead of hanging. */
    @Test
    void aBatchThatIsNeverDoneFailsTheJobNamingTheStageItWaitsFor() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(RATE, EVENTS, (seq, time) -> seq, new ScheduleMonitor()))
         .withoutTimestamps()
         .writeTo(Sinks.fromProcessor("refuses-everything", () -> new AbstractProcessor() {
             @Override
             protected boolean tryProcess(int ordinal, Object item) {
                 return false;
             }
         }));
        Job job = run(p, ExecutionModel.microBatch(Duration.ofMillis(BATCH_MS)));
        assertThatThrownBy(() -> finish(job)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("MICRO_BATCH batch 0 is not done 10 s after its launch: stage 0 launched through 0, finished by part [-1]");
    }

    @Test
    void aBatchedJobWithoutASourceThatCutsBatchesIsRefused() {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.boundedStream(List.of(1, 2, 3))).withoutTimestamps().writeTo(Sinks.discard());
        assertThatThrownBy(() -> run(p, ExecutionModel.microBatch(Duration.ofMillis(BATCH_MS))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MICRO_BATCH execution needs a source that cuts batches (the generator); this job has none");
    }
}
