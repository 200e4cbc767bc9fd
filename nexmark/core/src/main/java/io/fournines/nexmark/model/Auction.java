package io.fournines.nexmark.model;

import java.util.Objects;

/**
 * An auction opened by {@link #seller}; bids are accepted from {@link #dateTime} (inclusive) until
 * {@link #expires} (exclusive). Prices are in cents.
 */
public record Auction(
        long id,
        String itemName,
        String description,
        long initialBid,
        long reserve,
        long dateTime,
        long expires,
        long seller,
        long category,
        String extra) implements Event {

    public Auction {
        Objects.requireNonNull(itemName, "itemName");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(extra, "extra");
    }
}
