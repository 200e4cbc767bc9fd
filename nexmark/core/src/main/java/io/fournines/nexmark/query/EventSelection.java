package io.fournines.nexmark.query;

import io.fournines.nexmark.model.Event;

import java.util.Locale;

/**
 * The meaning of Q0, Q1 and Q2, independent of any engine: keep some events and map each kept one
 * to a result. Every engine's plan of these queries runs these functions, so all select and
 * convert exactly alike.
 */
public interface EventSelection<R> {

    boolean selects(Event event);

    /** Called only for events {@link #selects} keeps. */
    R result(Event event);

    /** The selection query called {@code name}; an IllegalArgumentException for any other query. */
    static EventSelection<?> of(String name, QueryParameters parameters) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "q0" -> new Q0Passthrough();
            case "q1" -> new Q1CurrencyConversion();
            case "q2" -> new Q2Selection(parameters.auctionSkip());
            default -> throw new IllegalArgumentException("not a selection query: " + name);
        };
    }
}
