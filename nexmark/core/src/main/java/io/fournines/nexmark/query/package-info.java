/**
 * NEXMark query results, one record per query, whose component names and order are the JSON
 * Lines format (one result a line; Jackson writes a record's components in declaration order).
 * Windows are aligned to epoch 0: a sliding window of size W and slide S is {@code [k*S, k*S+W)}
 * for every k whose window holds at least one input; a tumbling window is the case S = W. All times
 * are epoch millis, prices cents, averages the floor of sum / count.
 *
 * <ul>
 *   <li>Q0 passthrough: every event unchanged, in the event JSON form.</li>
 *   <li>Q1 {@link io.fournines.nexmark.query.EuroBid}: every bid, price converted to euro cents.</li>
 *   <li>Q2 {@link io.fournines.nexmark.query.AuctionPrice}: bids whose auction is a multiple of 123.</li>
 *   <li>Q3 {@link io.fournines.nexmark.query.LocalItemSuggestion}: people in OR, ID or CA with their
 *       category-10 auctions.</li>
 *   <li>Q4 {@link io.fournines.nexmark.query.CategoryAverage}: average winning price per category
 *       over sliding windows of auction close times.</li>
 *   <li>Q5 {@link io.fournines.nexmark.query.HotItem}: per sliding window, every auction tied for
 *       the most bids.</li>
 *   <li>Q6 {@link io.fournines.nexmark.query.SellerAverage}: per seller, the average winning price
 *       of their last 10 closed auctions, each time one closes.</li>
 *   <li>Q7 {@link io.fournines.nexmark.query.HighestBid}: per tumbling window, every bid with the
 *       window's highest price.</li>
 *   <li>Q8 {@link io.fournines.nexmark.query.NewUserAuction}: per tumbling window, people created in
 *       it with the auctions they opened in it.</li>
 *   <li>Q13 {@link io.fournines.nexmark.query.BidWithSideInput}: every bid joined with a bounded
 *       side input.</li>
 * </ul>
 *
 * <p>A winning bid (Q4, Q6) is the highest bid on an auction, placed in {@code [dateTime,
 * expires)} of that auction, at or above its reserve; among equal prices the earliest wins. An
 * auction without such a bid has no winner and is left out. An auction closes at its
 * {@code expires}; a bounded input closes every auction at its end.
 */
package io.fournines.nexmark.query;
