package io.fournines.nexmark.query;

/**
 * Q8: person {@code id} created in the tumbling window {@code [start, end)}, and the reserve of an
 * auction they opened in the same window. One result per such (person, auction) pair.
 */
public record NewUserAuction(long start, long end, long id, String name, long reserve) implements WindowedResult {
}
