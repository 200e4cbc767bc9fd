package io.fournines.engine.execution;

import io.fournines.engine.network.BatchEndpoint;
import io.fournines.engine.network.JobNetwork;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One job's batches on this member (micro-batch and group execution): its part ({@link
 * MemberBatches}) and, on the member that schedules, the {@link BatchScheduler}. The scheduling
 * member is the only one, or a cluster execution's first (every member of the execution agrees on it
 * without asking, and losing it ends the execution anyway); the others report to it and hear its
 * launches over the job's network.
 */
public final class JobBatches {

    /** The member of a cluster execution that schedules its batches. */
    static final int SCHEDULING_MEMBER = 0;
    /** How often a part says again that it is ready, until a launch shows it was heard. */
    private static final long READY_REPEAT_MILLIS = 100;

    private final MemberBatches member;
    /** Null on a member that does not schedule. */
    private final BatchScheduler scheduler;
    private final JobNetwork network;
    /** This member's index in the execution (0 alone). */
    private final int self;
    private final ScheduledExecutorService timer;
    private ScheduledFuture<?> readyRepeat;
    /** The execution the batches belong to: a stall fails it. */
    private volatile JobExecution execution;

    /**
     * @param network         the job's network; null: this member alone
     * @param timer           the scheduler's thread, and the repeated readiness's
     * @param startEpochNanos when the job starts: batch 0 ends at the first batch end after it
     */
    public JobBatches(ExecutionModel model, JobNetwork network, ScheduledExecutorService timer, long startEpochNanos) {
        this.member = new MemberBatches(model);
        this.network = network;
        this.timer = timer;
        this.self = network == null ? 0 : network.memberIndex();
        this.scheduler = network == null || self == SCHEDULING_MEMBER
                ? new BatchScheduler(model, startEpochNanos, network == null ? 1 : network.memberCount(), this::launchEverywhere, timer,
                        why -> execution.fail(new IllegalStateException(why)))
                : null;
        Link link = new Link();
        member.reportTo(link);
        if (network != null) {
            network.registerBatches(link);
        }
    }

    /**
     * Between this member's part and the scheduler: reports go to it directly on the member that
     * schedules, else over the network; what the network brings goes to the scheduler (its
     * readiness and stage reports) or to the part (launches).
     */
    private final class Link implements MemberBatches.Reports, BatchEndpoint {

        @Override
        public void ready() {
            if (scheduler != null) {
                scheduler.ready(self);
            } else {
                network.sendBatchReady(SCHEDULING_MEMBER);
            }
        }

        @Override
        public void stageDone(int stage, long batch, long startedMicros, long finishedMicros) {
            if (scheduler != null) {
                scheduler.stageDone(self, stage, batch, startedMicros, finishedMicros);
            } else {
                network.sendStageDone(SCHEDULING_MEMBER, stage, batch, startedMicros, finishedMicros);
            }
        }

        @Override
        public void onReady(int fromMember) {
            scheduler.ready(fromMember);
        }

        @Override
        public void onStageDone(int fromMember, int stage, long batch, long startedMicros, long finishedMicros) {
            scheduler.stageDone(fromMember, stage, batch, startedMicros, finishedMicros);
        }

        @Override
        public void onLaunch(int stage, long throughBatch, long firstEnd) {
            member.launch(stage, throughBatch, firstEnd);
        }
    }

    /** The execution these batches belong to, set as it is made. */
    void belongTo(JobExecution execution) {
        this.execution = execution;
    }

    /** Whether this member schedules the job's batches (and so has their times). */
    public boolean schedules() {
        return scheduler != null;
    }

    /** This member's part. */
    public MemberBatches member() {
        return member;
    }

    /**
     * Once the part is planned: the scheduler learns the stages, and the part says it is ready; over
     * the network again and again until the first launch shows it was heard (the scheduling member
     * may not have registered its end yet).
     */
    public synchronized void start() {
        if (scheduler != null) {
            scheduler.plan(member.stages());
            member.ready();
            return;
        }
        readyRepeat = timer.scheduleWithFixedDelay(() -> {
            if (member.launchedAny()) {
                stopRepeating();
            } else {
                member.ready();
            }
        }, 0, READY_REPEAT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** No more launches or readiness: the job ended or failed here. */
    public void stop() {
        if (scheduler != null) {
            scheduler.stop();
        }
        stopRepeating();
    }

    /** On the scheduling member: each stage's times of every batch done since the last call, in batch order; else nothing. */
    public void drainFinished(Consumer<BatchScheduler.StageTimes> to) {
        if (scheduler != null) {
            scheduler.drainFinished(to);
        }
    }

    private synchronized void stopRepeating() {
        if (readyRepeat != null) {
            readyRepeat.cancel(false);
        }
    }

    private void launchEverywhere(int stage, long throughBatch, long firstEnd) {
        member.launch(stage, throughBatch, firstEnd);
        if (network != null) {
            for (int m = 0; m < network.memberCount(); m++) {
                if (m != self) {
                    network.sendLaunch(m, stage, throughBatch, firstEnd);
                }
            }
        }
    }
}
