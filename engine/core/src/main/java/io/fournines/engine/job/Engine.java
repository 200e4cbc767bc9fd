package io.fournines.engine.job;

import io.fournines.engine.dag.Dag;
import io.fournines.engine.core.Clocks;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionPlan;
import io.fournines.engine.execution.JobBatches;
import io.fournines.engine.execution.JobExecution;
import io.fournines.engine.execution.SnapshotCoordinator;
import io.fournines.engine.execution.TaskletExecutionService;
import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.pipeline.Pipeline;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** One engine instance (a member): its worker threads and the jobs it runs. Close it to stop the threads. */
public final class Engine implements AutoCloseable {

    private final TaskletExecutionService executionService;
    private final AtomicLong jobCounter = new AtomicLong();
    /** Starts the snapshots and launches the batches of every job; its one thread only flips what tasklets read. */
    private final ScheduledExecutorService jobTimer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fournines-job-timer");
        t.setDaemon(true);
        return t;
    });

    private Engine(ExecutionConfig config) {
        this.executionService = new TaskletExecutionService(config);
    }

    public static Engine start() {
        return start(ExecutionConfig.defaults());
    }

    public static Engine start(ExecutionConfig config) {
        return new Engine(config);
    }

    public ExecutionConfig config() {
        return executionService.config();
    }

    public Job newJob(Pipeline pipeline) {
        return newJob(pipeline.toDag(), JobConfig.defaults());
    }

    public Job newJob(Pipeline pipeline, JobConfig config) {
        return newJob(pipeline.toDag(), config);
    }

    public Job newJob(Dag dag) {
        return newJob(dag, JobConfig.defaults());
    }

    public Job newJob(Dag dag, JobConfig config) {
        return newJob(dag, config, null);
    }

    /**
     * Starts this member's part of a job every member of {@code network} runs (null: this member
     * alone). Every member must plan the same DAG with the same parallelism. With a network, even of
     * one member, snapshots are not timed here: the cluster's coordinator starts and commits them
     * (see {@link Job#commitAfterClusterAgrees}); micro-batch and group execution's batches are
     * scheduled by the network's first member ({@link JobBatches}).
     */
    public Job newJob(Dag dag, JobConfig config, JobNetwork network) {
        SnapshotCoordinator snapshots = new SnapshotCoordinator(config.guarantee(), config.store(), config.restoreFrom());
        JobBatches batches = config.execution().batched() ? new JobBatches(config.execution(), network, jobTimer, epochNanos()) : null;
        JobExecution execution = new JobExecution(snapshots, batches);
        String name = "job-" + jobCounter.incrementAndGet();
        try {
            ExecutionPlan.start(dag, executionService, execution, network);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("job '" + name + "' failed to start: " + e, e);
        }
        if (snapshots.enabled() && network == null) {
            long interval = config.snapshotInterval().toNanos();
            ScheduledFuture<?> timer = jobTimer.scheduleWithFixedDelay(snapshots::tryStartSnapshot, interval, interval, TimeUnit.NANOSECONDS);
            execution.completion().whenComplete((ok, failure) -> timer.cancel(false));
        }
        if (batches != null) {
            batches.start();
        }
        return new Job(name, execution);
    }

    private static long epochNanos() {
        return Clocks.pair()[1];
    }

    @Override
    public void close() {
        jobTimer.shutdownNow();
        executionService.close();
    }
}
