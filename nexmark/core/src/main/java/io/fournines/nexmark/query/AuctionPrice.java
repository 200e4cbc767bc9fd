package io.fournines.nexmark.query;

/** Q2: the auction and price of a bid on an auction whose id is a multiple of the skip (default 123). */
public record AuctionPrice(long auction, long price) {
}
