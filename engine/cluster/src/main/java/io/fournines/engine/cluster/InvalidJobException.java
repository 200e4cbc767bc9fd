package io.fournines.engine.cluster;

/** A job description that cannot run as written; the message says what is wrong. */
public final class InvalidJobException extends Exception {

    public InvalidJobException(String message) {
        super(message);
    }
}
