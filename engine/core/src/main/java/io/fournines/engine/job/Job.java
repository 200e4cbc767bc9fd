package io.fournines.engine.job;

import io.fournines.engine.execution.CommittedSnapshot;
import io.fournines.engine.execution.BatchScheduler;
import io.fournines.engine.execution.JobExecution;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/** A submitted job: wait for it, or cancel it. */
public final class Job {

    private final String name;
    private final JobExecution execution;

    Job(String name, JobExecution execution) {
        this.name = name;
        this.execution = execution;
    }

    public String name() {
        return name;
    }

    /** Completes when every processor is done; exceptionally with the first processor failure. */
    public CompletableFuture<Void> future() {
        return execution.completion();
    }

    /**
     * Waits for a job that ends by itself (a batch job). Throws the {@link
     * io.fournines.engine.execution.JobFailedException} (cause: the processor's exception) if it failed,
     * or {@link CancellationException} if it was cancelled.
     */
    public void join() {
        try {
            execution.completion().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining job '" + name + "'", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
    }

    /** Like {@link #join()}, but gives up after the timeout. */
    public void join(long timeout, TimeUnit unit) throws TimeoutException {
        try {
            execution.completion().get(timeout, unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining job '" + name + "'", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
    }

    /** Stops every processor at its next call; {@link #join()} then throws {@code cause}. */
    public void fail(Throwable cause) {
        execution.fail(cause);
    }

    /** Stops every processor at its next call; {@link #join()} then throws CancellationException. */
    public void cancel() {
        execution.cancel();
    }

    /**
     * The job's counters by {@code vertex.name}, summed over instances: {@code itemsIn} and
     * {@code itemsOut} (data items, not watermarks) for every vertex, and what processors count (e.g. late items).
     */
    public Map<String, Long> metrics() {
        return execution.metrics().snapshot();
    }

    /** The newest snapshot every processor saved and the store committed (the job's restore point). */
    public long lastCommittedSnapshot() {
        return execution.snapshots().committed();
    }

    /** Snapshots committed since this job started. */
    public long committedSnapshotCount() {
        return execution.snapshots().completedCount();
    }

    /** How long the latest committed snapshot took, from its start to its commit. */
    public long lastSnapshotDurationNanos() {
        return execution.snapshots().lastDurationNanos();
    }

    /** Hands {@code to} each snapshot committed since the last call, oldest first (its start, save and commit instants, its size). */
    public void drainCommittedSnapshots(Consumer<CommittedSnapshot> to) {
        execution.snapshots().drainCommitted(to);
    }

    /** How long ago the latest snapshot committed (none yet: since the job started). */
    public long nanosSinceLastCommit() {
        return execution.snapshots().nanosSinceLastCommit();
    }

    /**
     * Makes this member's part of a cluster job commit only when the cluster agrees: {@code
     * locallySaved} hears (on a worker thread; it must not block) that this member's processors
     * saved a snapshot, and the cluster's coordinator then calls {@link #commitSnapshot}. Call it
     * before the first {@link #startSnapshot}.
     */
    public void commitAfterClusterAgrees(LongConsumer locallySaved) {
        execution.snapshots().commitAfterClusterAgrees(locallySaved);
    }

    /** Starts snapshot {@code id} on this member (a cluster job's snapshots are started by its coordinator). */
    public void startSnapshot(long id) {
        execution.snapshots().startSnapshot(id);
    }

    /** Every member saved snapshot {@code id}: it becomes this member's restore point. */
    public void commitSnapshot(long id) {
        execution.snapshots().commitSnapshot(id);
    }

    /** Micro-batch and group execution: whether this member schedules the job's batches (so {@link #drainBatchTimes} has their times). */
    public boolean schedulesBatches() {
        return execution.batches() != null && execution.batches().schedules();
    }

    /**
     * Micro-batch and group execution, on the member that schedules the batches: hands {@code to} each
     * stage's times of every batch done since the last call (launched, started, done), in batch order;
     * nothing on another member, or in continuous execution.
     */
    public void drainBatchTimes(Consumer<BatchScheduler.StageTimes> to) {
        if (execution.batches() != null) {
            execution.batches().drainFinished(to);
        }
    }

    public boolean isDone() {
        return execution.completion().isDone();
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof RuntimeException re) {
            return re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(cause);
    }
}
