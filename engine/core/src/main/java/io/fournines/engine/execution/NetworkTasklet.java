package io.fournines.engine.execution;

/** What the sending and receiving ends of a distributed edge share as tasklets of a job. */
abstract class NetworkTasklet implements Tasklet {

    protected final String name;
    protected final JobExecution execution;

    NetworkTasklet(String name, JobExecution execution) {
        this.name = name;
        this.execution = execution;
    }

    /** Never blocks: the I/O thread does the socket work. */
    @Override
    public final boolean isCooperative() {
        return true;
    }

    @Override
    public final void fail(Throwable cause) {
        execution.fail(new JobFailedException(name + " failed: " + cause, cause));
    }

    @Override
    public final void close() {
        execution.taskletFinished();
    }

    @Override
    public final String toString() {
        return name;
    }
}
