package io.fournines.nexmark.query;

/**
 * Q6: emitted each time one of {@code seller}'s auctions closes with a winner; {@code average} is
 * the floor of the mean winning price of the seller's last 10 such auctions (fewer at first),
 * ordered by close time and then auction id; {@code dateTime} is the closing auction's expiry.
 */
public record SellerAverage(long seller, long average, long dateTime) {
}
