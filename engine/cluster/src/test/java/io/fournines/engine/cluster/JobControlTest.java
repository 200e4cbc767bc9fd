package io.fournines.engine.cluster;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.ExecutionModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The job-control protocol on three members in one JVM, with a fake job runner: the cluster never
 * reads a job's description, it only asks the runner. A description here is
 * {@code members=N[,fail-on=M][,refuse][,slow-stop]} ({@code slow-stop}: a part told to fail takes
 * until the test lets it).
 */
class JobControlTest {

    @TempDir
    Path out;
    private final LoopbackClusters clusters = new LoopbackClusters();
    private final List<FakePart> parts = new CopyOnWriteArrayList<>();
    private final List<JobControl> controls = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (JobControl c : controls) {
            c.stopAll(5);
        }
        clusters.close();
    }

    private List<JobControl> start(int n) throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < n; i++) {
            controls.add(new JobControl(out.resolve("member-" + i), new FakeRunner(), quiet, 1, Duration.ofMillis(500)));
        }
        List<Cluster> joined = clusters.join(n, controls::get);
        for (int i = 0; i < n; i++) {
            controls.get(i).joined(joined.get(i));
        }
        return controls;
    }

    @Test
    void aJobSubmittedToAnyMemberStartsOnEveryMemberAtOneInstant() throws Exception {
        List<JobControl> members = start(3);
        long id = members.get(2).submit("members=3");
        await().atMost(10, TimeUnit.SECONDS).until(() -> parts.size() == 3 && parts.stream().allMatch(p -> p.running.getCount() == 0));
        assertThat(parts).extracting(p -> p.context.startEpochNanos()).containsOnly(parts.get(0).context.startEpochNanos());
        assertThat(parts).extracting(p -> p.context.member()).containsExactlyInAnyOrder(0, 1, 2);
        for (JobControl m : members) {
            assertThat(m.job(id).state).isEqualTo("running");
        }
    }

    @Test
    void aJobTheRunnerRefusesOrSizedForAnotherClusterIsRefusedBeforeAnythingStarts() throws Exception {
        List<JobControl> members = start(3);
        assertThatThrownBy(() -> members.get(0).submit("members=3,refuse")).isInstanceOf(InvalidJobException.class)
                .hasMessage("the fake runner refuses this job");
        assertThatThrownBy(() -> members.get(0).submit("members=2")).isInstanceOf(InvalidJobException.class)
                .hasMessage("cluster.members: this cluster has 3 members; is 2");
        Thread.sleep(300);
        assertThat(parts).isEmpty();
        assertThat(members.get(0).jobs()).isEmpty();
    }

    @Test
    void aPartThatFailsFailsTheJobOnEveryMemberNamingIt() throws Exception {
        List<JobControl> members = start(3);
        long id = members.get(0).submit("members=3,fail-on=1");
        await().atMost(10, TimeUnit.SECONDS).until(() -> members.stream().allMatch(m -> m.job(id) != null && m.job(id).state.equals("failed")));
        for (JobControl m : members) {
            assertThat(m.job(id).cause).isEqualTo("member 1: java.lang.IllegalStateException: the part on member 1 failed");
        }
        await().atMost(5, TimeUnit.SECONDS).until(() -> members.get(0).job(id).members.size() == 3);
        assertThat(members.get(0).job(id).members.values()).allMatch(s -> s.startsWith("failed"));
    }

    @Test
    void everyPartPreparesBeforeTheStartInstant() throws Exception {
        List<JobControl> members = start(3);
        members.get(0).submit("members=3");
        await().atMost(10, TimeUnit.SECONDS).until(() -> parts.size() == 3 && parts.stream().allMatch(p -> p.running.getCount() == 0));
        for (FakePart p : parts) {
            assertThat(p.preparedAtNanos).isPositive().isLessThan(p.context.startEpochNanos());
        }
    }

    @Test
    void aPartThatCannotPrepareFailsTheJobOnEveryMemberNamingIt() throws Exception {
        List<JobControl> members = start(3);
        long id = members.get(0).submit("members=3,unprepared-on=2");
        await().atMost(10, TimeUnit.SECONDS).until(() -> members.stream().allMatch(m -> m.job(id) != null && m.job(id).state.equals("failed")));
        for (JobControl m : members) {
            assertThat(m.job(id).cause).isEqualTo("member 2: java.lang.IllegalStateException: member 2 cannot prepare");
        }
    }

    @Test
    void aLostMemberFailsAJobWithoutAGuaranteeOnTheOthersNamingIt() throws Exception {
        List<JobControl> members = start(3);
        long id = members.get(0).submit("members=3");
        await().atMost(10, TimeUnit.SECONDS).until(() -> parts.size() == 3 && parts.stream().allMatch(p -> p.running.getCount() == 0));
        members.get(2).cluster().close();
        await().atMost(10, TimeUnit.SECONDS).until(() -> members.get(0).job(id).state.equals("failed") && members.get(1).job(id).state.equals("failed"));
        assertThat(members.get(0).job(id).cause).contains("failed because it lost the connection to member 2").contains("no snapshots to restart from");
    }

    @Test
    void aMemberThatLeavesItsPartSaysLeftAtOnceNotOnlyWhenThePartHasStopped() throws Exception {
        List<JobControl> members = start(3);
        long id = members.get(0).submit("members=3,slow-stop");
        await().atMost(10, TimeUnit.SECONDS).until(() -> parts.size() == 3 && parts.stream().allMatch(p -> p.running.getCount() == 0));
        Thread dropped = new Thread(() -> members.get(1).onDropped("this member was paused for 4000 ms"));
        dropped.start();
        try {
            JobControl.JobState left = members.get(1).job(id);
            await().atMost(10, TimeUnit.SECONDS).until(() -> left.cause != null);
            assertThat(left.cause).contains("left job " + id);
            // A runner asking meanwhile must not read the cause as the job's failure.
            assertThat(left.state).as("while its part is still stopping").isEqualTo("left");
        } finally {
            parts.forEach(p -> p.release.countDown());
            dropped.join();
        }
    }

    /**
     * Settings from the description; a part that runs until stopped or failed, or fails itself on
     * member fail-on, or cannot prepare on member unprepared-on.
     */
    private final class FakeRunner implements JobRunner {
        @Override
        public JobSettings settings(String description) throws InvalidJobException {
            if (description.contains("refuse")) {
                throw new InvalidJobException("the fake runner refuses this job");
            }
            return new JobSettings(Integer.parseInt(field(description, "members")), ProcessingGuarantee.NONE, Duration.ZERO, 0,
                    ExecutionModel.CONTINUOUS);
        }

        @Override
        public JobPart part(String description, PartContext context) {
            String failOn = description.contains("fail-on=") ? field(description, "fail-on") : "-1";
            String unpreparedOn = description.contains("unprepared-on=") ? field(description, "unprepared-on") : "-1";
            FakePart part = new FakePart(context, Integer.parseInt(failOn) == context.member(), Integer.parseInt(unpreparedOn) == context.member(),
                    description.contains("slow-stop"));
            parts.add(part);
            return part;
        }

        private static String field(String description, String name) {
            for (String f : description.split(",")) {
                if (f.startsWith(name + "=")) {
                    return f.substring(name.length() + 1);
                }
            }
            throw new IllegalArgumentException(name);
        }
    }

    private static final class FakePart implements JobPart {
        final JobRunner.PartContext context;
        final boolean failsItself;
        final boolean cannotPrepare;
        volatile long preparedAtNanos;
        final CountDownLatch running = new CountDownLatch(1);
        final CountDownLatch release;
        final CompletableFuture<Void> ended = new CompletableFuture<>();
        volatile Throwable failure;

        FakePart(JobRunner.PartContext context, boolean failsItself, boolean cannotPrepare, boolean slowStop) {
            this.context = context;
            this.failsItself = failsItself;
            this.cannotPrepare = cannotPrepare;
            this.release = new CountDownLatch(slowStop ? 1 : 0);
        }

        @Override
        public void prepare() {
            if (cannotPrepare) {
                throw new IllegalStateException("member " + context.member() + " cannot prepare");
            }
            Instant now = Instant.now();
            preparedAtNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        @Override
        public int run(PrintStream err) throws InterruptedException {
            running.countDown();
            context.job().result().whenComplete((ignored, e) -> {
                if (e != null) {
                    fail(e);
                }
            });
            if (failsItself) {
                fail(new IllegalStateException("the part on member " + context.member() + " failed"));
            }
            try {
                ended.get();
                return 3;
            } catch (ExecutionException e) {
                return 1;
            }
        }

        @Override
        public void requestStop() {
            ended.complete(null);
        }

        @Override
        public boolean awaitFinished(long seconds) {
            return true;
        }

        @Override
        public void fail(Throwable cause) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failure == null) {
                failure = cause;
            }
            ended.completeExceptionally(cause);
        }

        @Override
        public Throwable failure() {
            return failure;
        }

        @Override
        public Map<String, Long> metrics() {
            return Map.of();
        }

        @Override
        public long scheduleLagNanos() {
            return 0;
        }
    }
}
