package io.fournines.nexmark.query;

/** Q5: an auction tied for the most bids in the window {@code [start, end)}, with that count. */
public record HotItem(long start, long end, long auction, long count) implements WindowedResult {
}
