package io.fournines.nexmark.model;

import java.util.Objects;

/** A bid of {@link #price} cents by person {@link #bidder} on auction {@link #auction}. */
public record Bid(long auction, long bidder, long price, long dateTime, String extra) implements Event {

    public Bid {
        Objects.requireNonNull(extra, "extra");
    }
}
