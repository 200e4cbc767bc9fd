package io.fournines.nexmark.query;

/**
 * Q13: a bid joined with a bounded side input of {@code rows} entries keyed 0 to rows-1; the bid
 * matches the entry with key {@code bidder % rows} and carries its {@code value}. Bids whose key
 * is absent from the side input are dropped (inner join).
 */
public record BidWithSideInput(long auction, long bidder, long price, long dateTime, String value) {
}
