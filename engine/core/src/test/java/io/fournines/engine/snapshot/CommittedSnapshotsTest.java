package io.fournines.engine.snapshot;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.CommittedSnapshot;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The timeline of a job's snapshots: each committed one handed on once, in order, with its instants and size. */
class CommittedSnapshotsTest {

    @Test
    void eachCommittedSnapshotIsHandedOnOnceWithItsStartSaveCommitAndSize() throws Exception {
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(100_000, Long.MAX_VALUE, (seq, scheduled) -> seq, new ScheduleMonitor()))
         .withTimestamps(seq -> seq / 100, 10)
         .groupingKey(seq -> seq % 100).window(WindowDefinition.sliding(1_000, 10)).aggregate(AggregateOperations.counting())
         .writeTo(Sinks.discard());
        List<CommittedSnapshot> drained = new ArrayList<>();
        long before;
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            before = System.nanoTime();
            Job job = engine.newJob(p, JobConfig.snapshotting(ProcessingGuarantee.EXACTLY_ONCE, Duration.ofMillis(20), new InMemorySnapshotStore()));
            await().atMost(Duration.ofSeconds(30)).until(() -> job.committedSnapshotCount() >= 2);
            job.drainCommittedSnapshots(drained::add);
            await().atMost(Duration.ofSeconds(30)).until(() -> job.committedSnapshotCount() >= drained.size() + 2);
            job.drainCommittedSnapshots(drained::add);
            job.cancel();
        }

        assertThat(drained).hasSizeGreaterThanOrEqualTo(4);
        for (int i = 0; i < drained.size(); i++) {
            CommittedSnapshot s = drained.get(i);
            assertThat(s.id()).as("snapshot ids, each once, in order").isEqualTo(i + 1);
            assertThat(s.startedNanos()).isGreaterThan(before);
            assertThat(s.startedNanos()).isLessThanOrEqualTo(s.savedNanos());
            assertThat(s.savedNanos()).isLessThanOrEqualTo(s.committedNanos());
            assertThat(s.bytes()).as("the window's state").isPositive();
        }
    }
}
