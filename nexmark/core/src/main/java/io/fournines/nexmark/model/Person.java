package io.fournines.nexmark.model;

import java.util.Objects;

/** A person who registered on the auction site; sellers and bidders refer to {@link #id}. */
public record Person(
        long id,
        String name,
        String emailAddress,
        String creditCard,
        String city,
        String state,
        long dateTime,
        String extra) implements Event {

    public Person {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(emailAddress, "emailAddress");
        Objects.requireNonNull(creditCard, "creditCard");
        Objects.requireNonNull(city, "city");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(extra, "extra");
    }
}
