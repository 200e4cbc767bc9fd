package io.fournines.nexmark.model;

import java.util.Comparator;
import java.util.Objects;

/**
 * A bid of {@link #price} cents by person {@link #bidder} on auction {@link #auction}.
 *
 * <p>A class with a record's contract (accessors, value equality) rather than a record, so that a
 * generator feeding a consumer that keeps nothing of a bid can refill one ({@link Refilled}): bids
 * are 9 events in 10, and one object each was most of what a Q5 run allocated.
 */
public final class Bid implements Event, Comparable<Bid> {

    /** The fields in declaration order, as a record's components are ordered for output. */
    private static final Comparator<Bid> ORDER = Comparator.comparingLong(Bid::auction).thenComparingLong(Bid::bidder)
            .thenComparingLong(Bid::price).thenComparingLong(Bid::dateTime).thenComparing(Bid::extra);

    private long auction;
    private long bidder;
    private long price;
    private long dateTime;
    private String extra;

    public Bid(long auction, long bidder, long price, long dateTime, String extra) {
        set(auction, bidder, price, dateTime, extra);
    }

    private void set(long auction, long bidder, long price, long dateTime, String extra) {
        this.auction = auction;
        this.bidder = bidder;
        this.price = price;
        this.dateTime = dateTime;
        this.extra = Objects.requireNonNull(extra, "extra");
    }

    public long auction() {
        return auction;
    }

    public long bidder() {
        return bidder;
    }

    public long price() {
        return price;
    }

    @Override
    public long dateTime() {
        return dateTime;
    }

    public String extra() {
        return extra;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bid b && auction == b.auction && bidder == b.bidder && price == b.price && dateTime == b.dateTime
                && extra.equals(b.extra);
    }

    /** As a record's: no array or boxes made for it. */
    @Override
    public int hashCode() {
        int h = Long.hashCode(auction);
        h = 31 * h + Long.hashCode(bidder);
        h = 31 * h + Long.hashCode(price);
        h = 31 * h + Long.hashCode(dateTime);
        return 31 * h + extra.hashCode();
    }

    @Override
    public int compareTo(Bid other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return "Bid[auction=" + auction + ", bidder=" + bidder + ", price=" + price + ", dateTime=" + dateTime + ", extra=" + extra + "]";
    }

    /**
     * One bid, refilled for each new one: for a consumer that is done with a bid when it takes the
     * next, keeping none of it (nor the bid itself) past that. Not thread-safe.
     */
    public static final class Refilled {
        private final Bid bid = new Bid(0, 0, 0, 0, "");

        /** The one bid, now with these fields. */
        public Bid next(long auction, long bidder, long price, long dateTime, String extra) {
            bid.set(auction, bidder, price, dateTime, extra);
            return bid;
        }
    }
}
