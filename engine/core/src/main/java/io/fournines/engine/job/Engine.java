package io.fournines.engine.job;

import io.fournines.engine.dag.Dag;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionPlan;
import io.fournines.engine.execution.JobExecution;
import io.fournines.engine.execution.TaskletExecutionService;
import io.fournines.engine.network.JobNetwork;
import io.fournines.engine.pipeline.Pipeline;

import java.util.concurrent.atomic.AtomicLong;

/** One engine instance (a member): its worker threads and the jobs it runs. Close it to stop the threads. */
public final class Engine implements AutoCloseable {

    private final TaskletExecutionService executionService;
    private final AtomicLong jobCounter = new AtomicLong();

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
        return newJob(pipeline.toDag());
    }

    public Job newJob(Dag dag) {
        return newJob(dag, null);
    }

    /**
     * Starts this member's part of a job every member of {@code network} runs (null: this member
     * alone). Every member must plan the same DAG with the same parallelism.
     */
    public Job newJob(Dag dag, JobNetwork network) {
        JobExecution execution = new JobExecution();
        String name = "job-" + jobCounter.incrementAndGet();
        try {
            ExecutionPlan.start(dag, executionService, execution, network);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("job '" + name + "' failed to start: " + e, e);
        }
        return new Job(name, execution);
    }

    @Override
    public void close() {
        executionService.close();
    }
}
