package io.fournines.engine.job;

import io.fournines.engine.dag.Dag;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionPlan;
import io.fournines.engine.execution.JobExecution;
import io.fournines.engine.execution.TaskletExecutionService;
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
        JobExecution execution = new JobExecution();
        String name = "job-" + jobCounter.incrementAndGet();
        try {
            ExecutionPlan.start(dag, executionService, execution);
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
