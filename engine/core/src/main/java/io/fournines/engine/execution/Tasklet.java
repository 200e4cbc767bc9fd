package io.fournines.engine.execution;

/** A unit of work a worker thread calls in its loop. A call never blocks (unless not cooperative). */
public interface Tasklet {

    ProgressState call();

    boolean isCooperative();

    /** See {@link io.fournines.engine.core.Processor#nextDeadlineNanos()}. */
    long nextDeadlineNanos();

    /** Called on the worker thread once the tasklet is done, failed or cancelled. */
    void close();

    /** The tasklet threw from {@link #call()}: record the failure. */
    void fail(Throwable cause);

    /**
     * On the {@link TaskletSampler}'s thread: a sample of the tasklet's worker, which was in this
     * tasklet's call at that instant or not, standing for the {@code micros} before it. Counters
     * written here have that thread as their one writer.
     */
    default void sampled(boolean running, long micros) {
    }
}
