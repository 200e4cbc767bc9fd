package io.fournines.engine.execution;

import io.fournines.engine.core.EpochClock;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The central scheduler of a job in micro-batch or group execution ({@link ExecutionModel}): it
 * launches batches and their stages on every member's part of the job ({@link MemberBatches}), hears
 * when every part has finished a stage of a batch, and records what each step cost. One member
 * schedules: the only one, or a cluster execution's first; the others hear its launches and report
 * to it over the job's network ({@link JobBatches}). It runs on one thread, the engine's job timer:
 * reports are handed to it, so a tasklet never waits on the scheduler.
 *
 * <p>A stage is a run of vertices joined by isolated edges (one task in Spark's terms); every other
 * edge is a shuffle and starts the next stage. Batch n holds the items due before {@code endOf}(n),
 * batch 0 everything before the first end, so a restored source's backlog is one batch.
 *
 * <ul>
 *   <li>Micro-batch: batch n is launched at stage 0 (its sources may emit it) once its end has passed
 *       and batch n-1 is done everywhere; stage s+1 is launched for n once every part finished stage s
 *       of n (until then a tasklet of stage s+1 only takes its input in, like a shuffle's fetched
 *       blocks: {@link InboundStream}). On a cluster each step is a round trip to the scheduler.
 *   <li>Group: a group of batches is launched at once on every stage (reduce tasks pre-scheduled: a
 *       stage processes its input as it comes); the sources still emit batch n only once its end has
 *       passed, and the next group is launched once the last batch of this one is done everywhere.
 * </ul>
 *
 * <p>Nothing is launched before every part said it is ready. Each stage of each batch becomes a
 * {@link StageTimes} row once the batch is done. A batch not done {@link #stallTimeoutNanos} after
 * its launch fails the job, naming the stages and parts it waits for: nothing stalls silently. A
 * tuned group size ({@link ExecutionModel#tuned}) changes after each group, by the group's worst
 * batch.
 */
public final class BatchScheduler {

    /**
     * One stage of one batch, epoch microseconds: launched by the scheduler (a batch launched ahead,
     * in a group, counts from its end, when its items are all due), started on the first tasklet that
     * saw the launch on any member (not before the batch's end either, nor before the launch: members'
     * clocks may differ by their skew), finished by the last of its tasklets on any member (that
     * member's clock, kept between start and done), and done when the scheduler heard that every
     * member finished it; and the size of the group the batch was launched in.
     */
    public record StageTimes(long batch, int stage, long launchedMicros, long startedMicros, long finishedMicros, long doneMicros,
                             int groupSize) {
    }

    /** Where launches go: every part of the job. */
    @FunctionalInterface
    public interface Launches {
        /** Batches up to {@code throughBatch} are launched on {@code stage}; batch 0 ends at epoch batch index {@code firstEnd}. */
        void launch(int stage, long throughBatch, long firstEnd);
    }

    private final ExecutionModel model;
    private final long batchNanos;
    /** The epoch batch index (epoch ns / batch length) of batch 0's end. */
    private final long firstEnd;
    private final int parts;
    private final Launches launches;
    private final ScheduledExecutorService thread;
    private final EpochClock clock = new EpochClock();
    private final ConcurrentLinkedQueue<StageTimes> finished = new ConcurrentLinkedQueue<>();
    private final Consumer<String> stalled;
    /** The size of the next group: the model's, or as tuned so far. */
    private int groupSize;
    /** Of the running group: its size, and its batches' worst time from end to done, µs. */
    private int runningGroupSize;
    private long groupWorstMicros;

    private final boolean[] ready;
    private int readyParts;
    /** Per stage, the highest batch launched; -1 before the first. */
    private long[] launched;
    /** Per stage, per part: the highest batch it finished (Long.MAX_VALUE once ended). */
    private long[][] finishedBy;
    /** Per stage, the highest launched batch every part finished. */
    private long[] stageDone;
    /** Batches launched but not done: per stage {launched, started, done (heard), finished (the latest member's clock)} in epoch µs, 0 if not yet. */
    private final Map<Long, long[][]> inFlight = new HashMap<>();
    private long batchesDone = -1;
    private volatile boolean stopped;

    /**
     * @param startEpochNanos when the job starts: batch 0 ends at the first batch end after it
     * @param parts           the members whose parts report to this scheduler
     * @param thread          the one thread the scheduler runs on
     * @param stalled         told why, once, when a batch is not done in time
     */
    public BatchScheduler(ExecutionModel model, long startEpochNanos, int parts, Launches launches, ScheduledExecutorService thread,
                          Consumer<String> stalled) {
        if (!model.batched()) {
            throw new IllegalArgumentException("a batch scheduler is for micro-batch and group execution, not " + model.kind());
        }
        this.model = model;
        this.batchNanos = model.batch().toNanos();
        this.firstEnd = Math.floorDiv(startEpochNanos, batchNanos) + 1;
        this.parts = parts;
        this.launches = launches;
        this.thread = thread;
        this.ready = new boolean[parts];
        this.stalled = stalled;
        this.groupSize = model.groupSize();
    }

    /** The job's stages are known: launches begin once every part is ready. */
    public void plan(int stages) {
        run(() -> {
            launched = new long[stages];
            Arrays.fill(launched, -1);
            stageDone = launched.clone();
            finishedBy = new long[stages][parts];
            for (long[] byPart : finishedBy) {
                Arrays.fill(byPart, -1);
            }
            launchWhenReady();
        });
        long period = Math.max(batchNanos, TimeUnit.SECONDS.toNanos(1));
        try {
            thread.scheduleWithFixedDelay(this::checkStalled, period, period, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException engineClosed) {
            stopped = true;
        }
    }

    /** Fails the job once the oldest batch in flight was launched longer ago than the stall timeout. */
    private void checkStalled() {
        if (stopped) {
            throw new IllegalStateException("stopped: no more checks");
        }
        long[][] oldest = inFlight.get(batchesDone + 1);
        if (oldest == null || oldest[0][0] == 0 || clock.nowEpochMicros() - oldest[0][0] < stallTimeoutNanos() / 1_000) {
            return;
        }
        StringBuilder waiting = new StringBuilder();
        for (int s = 0; s < stageDone.length; s++) {
            if (stageDone[s] <= batchesDone) {
                waiting.append(waiting.isEmpty() ? "" : "; ").append("stage ").append(s).append(" launched through ").append(launched[s])
                        .append(", finished by part ").append(Arrays.toString(finishedBy[s]));
            }
        }
        stopped = true;
        stalled.accept(model.kind() + " batch " + (batchesDone + 1) + " is not done " + stallTimeoutNanos() / 1_000_000_000 + " s after its launch: "
                + waiting + " (the parts are the members in order)");
        throw new IllegalStateException("stalled: no more checks");
    }

    /** Ten seconds, or twenty lengths of the running group if that is longer. */
    private long stallTimeoutNanos() {
        return Math.max(TimeUnit.SECONDS.toNanos(10), 20 * batchNanos * runningGroupSize);
    }

    /** No more launches (the job ended or failed). */
    public void stop() {
        stopped = true;
    }

    /** Part {@code part} is planned: it hears launches from now on. */
    public void ready(int part) {
        run(() -> {
            if (!ready[part]) {
                ready[part] = true;
                readyParts++;
                launchWhenReady();
            }
        });
    }

    /**
     * Part {@code part} finished {@code stage} of {@code batch} (Long.MAX_VALUE: every batch), first
     * started at {@code startedMicros}, finished at {@code finishedMicros} (its clock).
     */
    public void stageDone(int part, int stage, long batch, long startedMicros, long finishedMicros) {
        run(() -> {
            long[][] times = batch == Long.MAX_VALUE ? null : inFlight.get(batch);
            if (times != null && (times[stage][1] == 0 || startedMicros < times[stage][1])) {
                times[stage][1] = startedMicros;
            }
            if (times != null) {
                times[stage][3] = Math.max(times[stage][3], finishedMicros);
            }
            finishedBy[stage][part] = Math.max(finishedBy[stage][part], batch);
            long now = clock.nowEpochMicros();
            stageProgress(stage, now);
            batchesDone(now);
        });
    }

    /** Each stage's times of every batch done since the last call, in batch order. */
    public void drainFinished(Consumer<StageTimes> to) {
        for (StageTimes t; (t = finished.poll()) != null; ) {
            to.accept(t);
        }
    }

    private void run(Runnable step) {
        if (stopped) {
            return;
        }
        try {
            thread.execute(step);
        } catch (RejectedExecutionException engineClosed) {
            stopped = true;
        }
    }

    private void launchWhenReady() {
        if (launched != null && readyParts == parts && launched[0] < 0) {
            launchWhenDue(0);
        }
    }

    private long endOf(long batch) {
        return (firstEnd + batch) * batchNanos;
    }

    /**
     * Records the launched batches every part finished on {@code stage} (a stage with no tasklet left
     * finishes them at once); in micro-batch, launches the next stage for each.
     */
    private void stageProgress(int stage, long now) {
        long done = Arrays.stream(finishedBy[stage]).min().orElse(Long.MAX_VALUE);
        long upTo = Math.min(done, launched[stage]);
        for (long n = stageDone[stage] + 1; n <= upTo; n++) {
            long[] times = inFlight.get(n)[stage];
            times[1] = times[1] == 0 ? now : times[1];
            times[2] = Math.max(now, times[1]);
            times[3] = times[3] == 0 ? times[2] : times[3];  // a stage no tasklet ran here: finished when heard
            stageDone[stage] = n;
            if (model.kind() == ExecutionModel.Kind.MICRO_BATCH && stage + 1 < stageDone.length) {
                launchStage(stage + 1, n, now);
            }
        }
    }

    /** Rows for the batches every stage is done with; the next group once this one is done. */
    private void batchesDone(long now) {
        long done = Arrays.stream(stageDone).min().orElse(-1);
        if (done <= batchesDone) {
            return;
        }
        for (long n = batchesDone + 1; n <= done; n++) {
            long[][] times = inFlight.remove(n);
            for (int s = 0; s < times.length; s++) {
                long started = Math.max(times[s][0], times[s][1]);
                long heard = Math.max(started, times[s][2]);
                finished.add(new StageTimes(n, s, times[s][0], started, Math.min(Math.max(started, times[s][3]), heard), heard,
                        runningGroupSize));
            }
            groupWorstMicros = Math.max(groupWorstMicros, times[times.length - 1][2] - endOf(n) / 1_000);
        }
        batchesDone = done;
        if (done == launched[0] && !allEnded()) {
            if (model.tunesGroupSize()) {
                groupSize = groupWorstMicros <= model.latencyTarget().toNanos() / 1_000 ? Math.min(ExecutionModel.MAX_GROUP_SIZE, groupSize + 1)
                        : Math.max(1, groupSize / 2);
            }
            launchWhenDue(done + 1);
        }
    }

    private boolean allEnded() {
        return Arrays.stream(finishedBy).flatMapToLong(Arrays::stream).allMatch(b -> b == Long.MAX_VALUE);
    }

    /** The group starting at {@code first}: at once if its first batch's end has passed, else then. */
    private void launchWhenDue(long first) {
        if (stopped) {
            return;
        }
        long wait = endOf(first) - clock.nowEpochNanos();
        if (wait <= 0) {
            launchGroup(first);
        } else {
            try {
                thread.schedule(() -> launchGroup(first), wait, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException engineClosed) {
                stopped = true;
            }
        }
    }

    private void launchGroup(long first) {
        if (stopped) {
            return;
        }
        long last = first + groupSize - 1;
        runningGroupSize = groupSize;
        groupWorstMicros = Long.MIN_VALUE;
        long now = clock.nowEpochMicros();
        for (long n = first; n <= last; n++) {
            inFlight.put(n, new long[stageDone.length][4]);
        }
        int stages = model.kind() == ExecutionModel.Kind.GROUP ? stageDone.length : 1;
        for (int s = 0; s < stages; s++) {
            for (long n = first; n <= last; n++) {
                inFlight.get(n)[s][0] = Math.max(now, endOf(n) / 1_000);
            }
            launched[s] = last;
            launches.launch(s, last, firstEnd);
        }
        for (int s = 0; s < stages; s++) {
            stageProgress(s, now);
        }
        batchesDone(now);
    }

    private void launchStage(int stage, long batch, long now) {
        inFlight.get(batch)[stage][0] = now;
        launched[stage] = batch;
        launches.launch(stage, batch, firstEnd);
        stageProgress(stage, now);
    }
}
