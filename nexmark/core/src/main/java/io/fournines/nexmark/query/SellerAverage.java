package io.fournines.nexmark.query;

/**
 * Q6: emitted each time one of {@code seller}'s auctions closes with a winner ({@code auction});
 * {@code average} is the floor of the mean winning price of the seller's last 10 such auctions
 * (fewer at first), ordered by close time, then auction id, the tie-break for auctions that close
 * in the same millisecond, then creation time (with recycled ids two auctions of one id may close
 * in one millisecond); {@code dateTime} is the closing auction's expiry. The output is in close
 * order too, by (dateTime, seller, auction, average), so the same input always gives the same output.
 */
public record SellerAverage(long seller, long auction, long average, long dateTime) {
}
