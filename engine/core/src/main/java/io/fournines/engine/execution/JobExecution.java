package io.fournines.engine.execution;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running state of one job: how many tasklets are still alive, why it is ending if it is ending
 * early, its snapshots and, in micro-batch or group execution, its batches. Tasklets poll
 * {@link #isTerminating()} at the start of every call.
 */
public final class JobExecution {

    private final SnapshotCoordinator snapshots;
    /** Null in continuous execution. */
    private final JobBatches batches;

    private final CompletableFuture<Void> completion = new CompletableFuture<>();
    private final JobMetrics metrics = new JobMetrics();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicInteger liveTasklets = new AtomicInteger();
    private volatile boolean terminating;

    public JobExecution() {
        this(SnapshotCoordinator.none(), null);
    }

    /** @param batches the batches of a micro-batch or group job; null: continuous execution */
    public JobExecution(SnapshotCoordinator snapshots, JobBatches batches) {
        this.snapshots = snapshots;
        this.batches = batches;
        if (batches != null) {
            batches.belongTo(this);
            completion.whenComplete((ok, failed) -> batches.stop());
        }
    }

    public SnapshotCoordinator snapshots() {
        return snapshots;
    }

    /** Null in continuous execution. */
    public JobBatches batches() {
        return batches;
    }

    public CompletableFuture<Void> completion() {
        return completion;
    }

    public JobMetrics metrics() {
        return metrics;
    }

    public boolean isTerminating() {
        return terminating;
    }

    /** Records the first failure; every tasklet of the job then stops. */
    public void fail(Throwable cause) {
        failure.compareAndSet(null, cause);
        terminating = true;
    }

    public void cancel() {
        fail(new CancellationException("job cancelled"));
    }

    void taskletStarted() {
        liveTasklets.incrementAndGet();
    }

    void taskletFinished() {
        if (liveTasklets.decrementAndGet() == 0) {
            Throwable cause = failure.get();
            if (cause == null) {
                completion.complete(null);
            } else {
                completion.completeExceptionally(cause);
            }
        }
    }
}
