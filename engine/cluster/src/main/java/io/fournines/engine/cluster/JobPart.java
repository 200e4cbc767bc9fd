package io.fournines.engine.cluster;

import java.io.PrintStream;
import java.util.Map;

/** One member's part of a job, as a {@link JobRunner} makes it and {@link JobControl} runs it. */
public interface JobPart {

    /**
     * On the part's own thread, before the job's start instant: what must be ready when the job
     * starts and must not count as its time (a Kafka client loaded, its topic checked). An exception
     * fails the job before it starts.
     */
    default void prepare() throws Exception {
    }

    /** Runs to the end, or until stopped; returns 0 completed, 1 failed ({@link #failure()}), 3 stopped early. */
    int run(PrintStream err) throws Exception;

    /** From another thread: stop, close the files, and return from {@link #run}. */
    void requestStop();

    /** Waits until {@link #run} has closed its files. */
    boolean awaitFinished(long seconds) throws InterruptedException;

    /** From another thread: the job fails with {@code cause} (another member failed or was lost); may come before {@link #run}. */
    void fail(Throwable cause);

    /** Why this part failed; null unless {@link #run} returned 1. */
    Throwable failure();

    /** The running execution's counters ({@code vertex.counter} and {@code net:stream.counter}); empty before it starts. */
    Map<String, Long> metrics();

    /** How far the job's generator sources are behind their schedule; 0 when on time or without one. */
    long scheduleLagNanos();
}
