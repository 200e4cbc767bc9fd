package io.fournines.nexmark.driver;

import java.io.PrintStream;

/** A member's run that another thread can stop early, waiting for it to close its files. */
public interface StoppableRun {

    /** Runs to the end, or until stopped; returns the member's exit code. */
    int run(PrintStream err) throws Exception;

    /** From another thread: stop the load, close the files, and return from {@link #run}. */
    void requestStop();

    /** Waits until {@link #run} has closed its files. */
    boolean awaitFinished(long seconds) throws InterruptedException;

    /**
     * Runs {@code run} with a shutdown hook, so that SIGTERM or SIGINT stop it and wait (up to 8 s)
     * for its files before the JVM halts (with 128 + the signal number).
     */
    static int runStoppingOnSignal(StoppableRun run, PrintStream err) throws Exception {
        Thread hook = new Thread(() -> {
            run.requestStop();
            try {
                run.awaitFinished(8);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "member-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run.run(err);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running: it waits for the files we just closed.
            }
        }
    }
}
