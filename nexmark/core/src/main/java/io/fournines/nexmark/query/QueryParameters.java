package io.fournines.nexmark.query;

/**
 * The parameters the queries take; each query reads only its own (the registry, {@link QueryRegistry}, says which).
 *
 * @param windowMs      window size: Q4 and Q5 (sliding), Q7 and Q8 (tumbling)
 * @param slideMs       slide: Q4 and Q5; Q6's frame (how long closed auctions are gathered)
 * @param auctionSkip   Q2 keeps bids on auctions whose id is a multiple of this
 * @param sideInputRows Q13's side input rows
 * @param personTtlMs   how long, in event time, a person is kept: Q3's, to pair with auctions that come
 *                      later; Q6's seller history, after their last closed auction
 */
public record QueryParameters(long windowMs, long slideMs, long auctionSkip, int sideInputRows, long personTtlMs) {

    /**
     * The paper's 10 s windows with a 10 ms slide; Beam's auction skip 123 and 500 side input rows;
     * persons kept a minute (the generator's sellers are among the newest 1 010 persons, 50 500
     * events back: a minute covers that from about 850 events/s up).
     */
    public static QueryParameters defaults() {
        return new QueryParameters(10_000, 10, 123, 500, 60_000);
    }

    public QueryParameters withWindow(long windowMs, long slideMs) {
        return new QueryParameters(windowMs, slideMs, auctionSkip, sideInputRows, personTtlMs);
    }

    public QueryParameters withAuctionSkip(long auctionSkip) {
        return new QueryParameters(windowMs, slideMs, auctionSkip, sideInputRows, personTtlMs);
    }

    public QueryParameters withSideInputRows(int sideInputRows) {
        return new QueryParameters(windowMs, slideMs, auctionSkip, sideInputRows, personTtlMs);
    }

    public QueryParameters withPersonTtl(long personTtlMs) {
        return new QueryParameters(windowMs, slideMs, auctionSkip, sideInputRows, personTtlMs);
    }
}
