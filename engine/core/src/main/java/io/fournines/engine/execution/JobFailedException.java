package io.fournines.engine.execution;

/** A job ended because one of its processors threw; the cause is the processor's exception. */
public final class JobFailedException extends RuntimeException {
    public JobFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
