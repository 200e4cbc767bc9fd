package io.fournines.nexmark.query;

/**
 * Q4: over the auctions of {@code category} that closed (by {@code expires}) in {@code [start,
 * end)} and had a winner, the floor of the mean winning price.
 */
public record CategoryAverage(long start, long end, long category, long average) implements WindowedResult {
}
