package io.fournines.engine.execution;

/**
 * The engine's threads: a fixed set of cooperative workers, started once and shared by all jobs,
 * a dedicated worker per non-cooperative tasklet, and the sampler of the cooperative workers' time.
 */
public final class TaskletExecutionService implements AutoCloseable {

    private final ExecutionConfig config;
    private final Worker[] cooperativeWorkers;
    private final TaskletSampler sampler;

    public TaskletExecutionService(ExecutionConfig config) {
        this.config = config;
        this.cooperativeWorkers = new Worker[config.cooperativeThreads()];
        for (int i = 0; i < cooperativeWorkers.length; i++) {
            cooperativeWorkers[i] = new Worker("fournines-worker-" + i, config.idling(), config.idleMinParkNanos(), config.idleMaxParkNanos(), false);
            cooperativeWorkers[i].start();
        }
        this.sampler = new TaskletSampler(cooperativeWorkers);
    }

    public ExecutionConfig config() {
        return config;
    }

    int cooperativeWorkerCount() {
        return cooperativeWorkers.length;
    }

    Worker cooperativeWorker(int index) {
        return cooperativeWorkers[index];
    }

    Worker newDedicatedWorker(String taskletName) {
        // A dedicated thread idles the engine's way whatever the cooperative workers do: it is not one of the cores they share.
        return new Worker("fournines-blocking-" + taskletName, Idling.PARK_BACKOFF, config.idleMinParkNanos(), config.idleMaxParkNanos(), true);
    }

    @Override
    public void close() {
        sampler.stop();
        for (Worker w : cooperativeWorkers) {
            w.shutdown();
        }
    }
}
