package io.fournines.nexmark.query;

/** Q1: a bid with its price in euro cents, {@code price * 89 / 100} rounded down. */
public record EuroBid(long auction, long bidder, long price, long dateTime) {
}
