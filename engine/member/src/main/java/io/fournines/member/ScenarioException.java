package io.fournines.member;

/** The scenario file cannot be run as written; the message names the field. */
final class ScenarioException extends Exception {

    ScenarioException(String message) {
        super(message);
    }
}
