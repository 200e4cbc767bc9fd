package io.fournines.engine.execution;

import io.fournines.engine.core.EpochClock;
import io.fournines.engine.core.SourceBatches;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * This member's part of a job's batches (micro-batch and group execution): what the job's {@link
 * BatchScheduler} launched on each stage, read by the tasklets on every call, and which batches every
 * tasklet of a stage here has finished, reported to the scheduler ({@link Reports}) with when the
 * stage first started the batch here. Launches wake the job's workers. Batch n ends at {@link #endOf}(n),
 * which the launches say. A stage whose tasklets here all ended before the first launch (the
 * instances an all-to-one edge does not reach end at once) says so with that launch: only then is
 * the scheduler sure to have planned, and its member to have set up its end of the network.
 */
public final class MemberBatches implements SourceBatches {

    /** Where this member's part tells the scheduler what it did: directly on the member that schedules, else over the network. */
    public interface Reports {

        /** The part is planned: launches may come. */
        void ready();

        /**
         * Every tasklet of {@code stage} here finished {@code batch} (Long.MAX_VALUE: they ended, so
         * every batch), the first of them having started it at {@code startedMicros} and the last
         * finished it at {@code finishedMicros} (epoch µs, this member's clock).
         */
        void stageDone(int stage, long batch, long startedMicros, long finishedMicros);
    }

    private final ExecutionModel model;
    private final long batchNanos;
    private final EpochClock clock = new EpochClock();
    private Reports reports;
    /** Per stage, the highest batch launched; -1 before the first. Read by tasklets on every call. */
    private AtomicLongArray launched;
    /** The epoch batch index of batch 0's end, as the launches say; set before the first launch is visible. */
    private volatile long firstEnd;
    private volatile long releasedEnd = Long.MIN_VALUE;
    /** Per stage, per tasklet of the stage here: the highest batch it finished (Long.MAX_VALUE once ended). */
    private long[][] finishedBy;
    /** Per stage, the highest batch every tasklet of the stage here finished. */
    private long[] stageDone;
    /** Per stage, by batch: when the first tasklet here started it, epoch µs. */
    private final List<Map<Long, Long>> started = new ArrayList<>();
    /** Stages whose tasklets here all ended before the first launch: told the scheduler with it. */
    private final List<Integer> endedBeforeLaunch = new ArrayList<>();
    private List<WorkerParker> workers = List.of();

    public MemberBatches(ExecutionModel model) {
        if (!model.batched()) {
            throw new IllegalArgumentException("batches are for micro-batch and group execution, not " + model.kind());
        }
        this.model = model;
        this.batchNanos = model.batch().toNanos();
    }

    public ExecutionModel model() {
        return model;
    }

    /** Where reports go; set before the part is {@link #plan planned}. */
    void reportTo(Reports reports) {
        this.reports = reports;
    }

    /** Called once the plan is known: how many tasklets each stage has here, and the workers launches wake. */
    synchronized void plan(int[] taskletsPerStage, List<WorkerParker> workers) {
        launched = new AtomicLongArray(taskletsPerStage.length);
        finishedBy = new long[taskletsPerStage.length][];
        stageDone = new long[taskletsPerStage.length];
        for (int s = 0; s < taskletsPerStage.length; s++) {
            launched.set(s, -1);
            finishedBy[s] = new long[taskletsPerStage[s]];
            Arrays.fill(finishedBy[s], -1);
            stageDone[s] = -1;
            started.add(new HashMap<>());
        }
        this.workers = List.copyOf(workers);
    }

    /** The number of stages, once planned. */
    public int stages() {
        return stageDone.length;
    }

    /** Tells the scheduler this part is planned. */
    void ready() {
        reports.ready();
    }

    /** Whether any batch was launched here yet. */
    boolean launchedAny() {
        return launched.get(0) >= 0;
    }

    /**
     * The scheduler launched batches up to {@code throughBatch} on {@code stage}, batch 0 ending at
     * epoch batch index {@code firstEnd}. A launch that is not ahead of what this part has is ignored.
     */
    public void launch(int stage, long throughBatch, long firstEnd) {
        this.firstEnd = firstEnd;
        if (stage == 0) {
            releasedEnd = Math.max(releasedEnd, endOf(throughBatch));
        }
        if (launched.getAndAccumulate(stage, throughBatch, Math::max) < throughBatch) {
            workers.forEach(WorkerParker::wake);
        }
        reportEndedBeforeLaunch();
    }

    private synchronized void reportEndedBeforeLaunch() {
        long now = clock.nowEpochMicros();
        endedBeforeLaunch.forEach(stage -> reports.stageDone(stage, Long.MAX_VALUE, now, now));
        endedBeforeLaunch.clear();
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

    /**
     * A tasklet of {@code stage} saw batches {@code fromBatch} to {@code batch} launched: they started
     * here (the first tasklet to notice counts; a batch launched ahead, in a group, not before its end).
     */
    synchronized void noticed(int stage, long fromBatch, long batch) {
        long now = clock.nowEpochMicros();
        for (long n = Math.max(fromBatch, stageDone[stage] + 1); n <= batch; n++) {
            started.get(stage).putIfAbsent(n, Math.max(now, endOf(n) / 1_000));
        }
    }

    /** Tasklet {@code index} of {@code stage} finished {@code batch} (Long.MAX_VALUE: it ended, so every batch). */
    synchronized void finished(int stage, int index, long batch) {
        finishedBy[stage][index] = batch;
        long done = Arrays.stream(finishedBy[stage]).min().orElse(Long.MAX_VALUE);
        if (done == Long.MAX_VALUE) {
            stageDone[stage] = Long.MAX_VALUE;
            if (launchedAny()) {
                long now = clock.nowEpochMicros();
                reports.stageDone(stage, Long.MAX_VALUE, now, now);
            } else {
                endedBeforeLaunch.add(stage);
            }
            return;
        }
        long now = clock.nowEpochMicros();
        for (long n = stageDone[stage] + 1; n <= done; n++) {
            Long first = started.get(stage).remove(n);
            reports.stageDone(stage, n, first == null ? now : first, now);
        }
        stageDone[stage] = Math.max(stageDone[stage], done);
    }
}
