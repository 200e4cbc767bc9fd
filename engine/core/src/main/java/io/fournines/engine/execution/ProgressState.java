package io.fournines.engine.execution;

/** What one {@link Tasklet#call()} achieved. */
public enum ProgressState {
    NO_PROGRESS,
    MADE_PROGRESS,
    DONE;

    static ProgressState of(boolean madeProgress, boolean done) {
        return done ? DONE : madeProgress ? MADE_PROGRESS : NO_PROGRESS;
    }
}
