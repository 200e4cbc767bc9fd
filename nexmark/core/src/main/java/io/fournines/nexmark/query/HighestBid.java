package io.fournines.nexmark.query;

/** Q7: a bid whose price is the highest of the tumbling window {@code [start, end)}; ties all appear. */
public record HighestBid(long start, long end, long auction, long bidder, long price, long dateTime) implements WindowedResult {
}
