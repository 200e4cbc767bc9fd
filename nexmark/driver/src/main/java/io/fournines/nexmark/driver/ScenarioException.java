package io.fournines.nexmark.driver;

/** The scenario cannot be run as written; the message names the field. */
public final class ScenarioException extends Exception {

    public ScenarioException(String message) {
        super(message);
    }
}
