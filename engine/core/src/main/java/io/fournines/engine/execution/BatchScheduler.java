package io.fournines.engine.execution;

import io.fournines.engine.core.Clocks;
import io.fournines.engine.core.SourceBatches;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * The central scheduler of a job in micro-batch or group execution ({@link ExecutionModel}): it
 * launches batches and their stages, hears when every tasklet of a stage has finished a batch, and
 * records what each step cost.
 *
 * <p>A stage is a run of vertices joined by isolated edges (one task in Spark's terms); every other
 * edge is a shuffle and starts the next stage. Batch n holds the items due before {@link #endOf}(n),
 * batch 0 everything before the first end, so a restored source's backlog is one batch.
 *
 * <ul>
 *   <li>Micro-batch: batch n is launched at stage 0 (its sources may emit it) once its end has passed
 *       and batch n-1 is done everywhere; stage s+1 is launched for n once every tasklet of stage s
 *       has finished n (until then a tasklet of stage s+1 only takes its input in, like a shuffle's
 *       fetched blocks: {@link InboundStream}).
 *   <li>Group: a group of batches is launched at once on every stage (reduce tasks pre-scheduled: a
 *       stage processes its input as it comes); the sources still emit batch n only once its end has
 *       passed, and the next group is launched once the last batch of this one is done everywhere.
 * </ul>
 *
 * <p>Tasklets read what is launched on every call ({@link #launched}); launches wake the job's workers.
 * Each stage of each batch becomes a {@link StageTimes} row once the batch is done.
 */
public final class BatchScheduler implements SourceBatches {

    /**
     * One stage of one batch, epoch microseconds: launched by the scheduler (a batch launched ahead,
     * in a group, counts from its end, when its items are all due), started on the first tasklet that
     * saw the launch (not before the batch's end either), and finished on every tasklet of the stage.
     */
    public record StageTimes(long batch, int stage, long launchedMicros, long startedMicros, long doneMicros) {
    }

    private final ExecutionModel model;
    private final long batchNanos;
    /** The epoch batch index (epoch ns / batch length) of batch 0's end. */
    private final long firstEnd;
    private final long originNanoTime;
    private final long originEpochNanos;
    private final ConcurrentLinkedQueue<StageTimes> finished = new ConcurrentLinkedQueue<>();

    /** Per stage, the highest batch launched; -1 before the first. Read by tasklets on every call. */
    private AtomicLongArray launched;
    /** Per stage, per tasklet of the stage: the highest batch it finished (Long.MAX_VALUE once ended). */
    private long[][] finishedBy;
    /** Per stage, the highest launched batch every tasklet of the stage finished. */
    private long[] stageDone;
    /** Batches launched but not done: per stage {launched, started, done} in epoch µs, 0 if not yet. */
    private final Map<Long, long[][]> inFlight = new HashMap<>();
    private long batchesDone = -1;
    private volatile long releasedEnd = Long.MIN_VALUE;
    private List<WorkerParker> workers = List.of();
    private ScheduledExecutorService timer;
    private volatile boolean stopped;

    /**
     * @param startEpochNanos when the job starts: batch 0 ends at the first batch end after it
     */
    public BatchScheduler(ExecutionModel model, long startEpochNanos) {
        if (!model.batched()) {
            throw new IllegalArgumentException("a batch scheduler is for micro-batch and group execution, not " + model.kind());
        }
        this.model = model;
        this.batchNanos = model.batch().toNanos();
        this.firstEnd = Math.floorDiv(startEpochNanos, batchNanos) + 1;
        long[] clocks = Clocks.pair();
        this.originNanoTime = clocks[0];
        this.originEpochNanos = clocks[1];
    }

    public ExecutionModel model() {
        return model;
    }

    /** Called once the plan is known: how many tasklets each stage has, and the workers launches wake. */
    synchronized void plan(int[] taskletsPerStage, List<WorkerParker> workers) {
        launched = new AtomicLongArray(taskletsPerStage.length);
        finishedBy = new long[taskletsPerStage.length][];
        stageDone = new long[taskletsPerStage.length];
        for (int s = 0; s < taskletsPerStage.length; s++) {
            launched.set(s, -1);
            finishedBy[s] = new long[taskletsPerStage[s]];
            Arrays.fill(finishedBy[s], -1);
            stageDone[s] = -1;
        }
        this.workers = List.copyOf(workers);
    }

    /** Starts launching, on {@code timer}: the first batch as soon as its end has passed. */
    public synchronized void start(ScheduledExecutorService timer) {
        this.timer = timer;
        launchWhenDue(0);
    }

    /** No more launches (the job ended or failed). */
    public void stop() {
        stopped = true;
    }

    @Override
    public long releasedBefore(long nowEpochNanos) {
        long passed = Math.floorDiv(nowEpochNanos, batchNanos) * batchNanos;
        return Math.min(releasedEnd, passed);
    }

    @Override
    public long endOf(long batch) {
        return (firstEnd + batch) * batchNanos;
    }

    long launched(int stage) {
        return launched.get(stage);
    }

    /** A tasklet of {@code stage} saw batches up to {@code batch} launched: they started (the first to notice counts). */
    synchronized void noticed(int stage, long fromBatch, long batch) {
        long now = nowMicros();
        for (long n = fromBatch; n <= batch; n++) {
            long[][] times = inFlight.get(n);
            if (times != null && times[stage][1] == 0) {
                times[stage][1] = Math.max(now, endOf(n) / 1_000);
            }
        }
    }

    /** Tasklet {@code index} of {@code stage} finished {@code batch} (Long.MAX_VALUE: it ended, so every batch). */
    synchronized void finished(int stage, int index, long batch) {
        finishedBy[stage][index] = batch;
        long now = nowMicros();
        stageProgress(stage, now);
        batchesDone(now);
    }

    /** Each stage's times of every batch done since the last call, in batch order. */
    public void drainFinished(Consumer<StageTimes> to) {
        for (StageTimes t; (t = finished.poll()) != null; ) {
            to.accept(t);
        }
    }

    /**
     * Records the launched batches every tasklet of {@code stage} has finished (a stage with no
     * tasklet left finishes them at once); in micro-batch, launches the next stage for each.
     */
    private void stageProgress(int stage, long now) {
        long done = Long.MAX_VALUE;
        for (long b : finishedBy[stage]) {
            done = Math.min(done, b);
        }
        long upTo = Math.min(done, launched.get(stage));
        for (long n = stageDone[stage] + 1; n <= upTo; n++) {
            long[] times = inFlight.get(n)[stage];
            times[1] = times[1] == 0 ? now : times[1];
            times[2] = Math.max(now, times[1]);
            stageDone[stage] = n;
            if (model.kind() == ExecutionModel.Kind.MICRO_BATCH && stage + 1 < stageDone.length) {
                launchStage(stage + 1, n, now);
            }
        }
    }

    /** Rows for the batches every stage is done with; the next group once this one is done. */
    private void batchesDone(long now) {
        long done = Long.MAX_VALUE;
        for (long d : stageDone) {
            done = Math.min(done, d);
        }
        if (done <= batchesDone) {
            return;
        }
        for (long n = batchesDone + 1; n <= done; n++) {
            long[][] times = inFlight.remove(n);
            for (int s = 0; s < times.length; s++) {
                finished.add(new StageTimes(n, s, times[s][0], times[s][1], times[s][2]));
            }
        }
        batchesDone = done;
        if (done == launched.get(0) && !allEnded()) {
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
        long wait = endOf(first) - nowEpochNanos();
        if (wait <= 0) {
            launchGroup(first);
        } else {
            timer.schedule(() -> {
                synchronized (this) {
                    launchGroup(first);
                }
            }, wait, TimeUnit.NANOSECONDS);
        }
    }

    private void launchGroup(long first) {
        if (stopped) {
            return;
        }
        long last = first + model.groupSize() - 1;
        long now = nowMicros();
        for (long n = first; n <= last; n++) {
            inFlight.put(n, new long[stageDone.length][3]);
        }
        releasedEnd = endOf(last);
        int stages = model.kind() == ExecutionModel.Kind.GROUP ? stageDone.length : 1;
        for (int s = 0; s < stages; s++) {
            for (long n = first; n <= last; n++) {
                inFlight.get(n)[s][0] = Math.max(now, endOf(n) / 1_000);
            }
            launched.set(s, last);
        }
        wakeWorkers();
        for (int s = 0; s < stages; s++) {
            stageProgress(s, now);
        }
        batchesDone(now);
    }

    private void launchStage(int stage, long batch, long now) {
        inFlight.get(batch)[stage][0] = now;
        launched.set(stage, batch);
        wakeWorkers();
        stageProgress(stage, now);
    }

    private void wakeWorkers() {
        workers.forEach(WorkerParker::wake);
    }

    private long nowEpochNanos() {
        return originEpochNanos + (System.nanoTime() - originNanoTime);
    }

    private long nowMicros() {
        return nowEpochNanos() / 1_000;
    }
}
