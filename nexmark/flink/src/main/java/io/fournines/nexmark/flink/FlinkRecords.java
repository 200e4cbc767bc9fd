package io.fournines.nexmark.flink;

/**
 * What crosses a Flink shuffle, as Flink POJOs (public fields, a public no-argument constructor) so
 * its PojoSerializer handles them rather than Kryo. The NEXMark model and result types are Java
 * records (and a bid, a class without a no-argument constructor) behind a sealed interface, which
 * Flink would hand to Kryo; they stay inside chained operators, where with object reuse nothing is
 * serialized.
 */
final class FlinkRecords {

    private FlinkRecords() {
    }

    /** Q5's first stage result: bids on {@code auction} in the window {@code [start, end)}. */
    public static final class AuctionCount {
        public long auction;
        public long count;
        public long start;
        public long end;

        public AuctionCount() {
        }

        AuctionCount(long auction, long count, long start, long end) {
            this.auction = auction;
            this.count = count;
            this.start = start;
            this.end = end;
        }
    }

    /** Q7: the bid fields the result needs. */
    public static final class BidRow {
        public long auction;
        public long bidder;
        public long price;
        public long dateTime;

        public BidRow() {
        }

        BidRow(long auction, long bidder, long price, long dateTime) {
            this.auction = auction;
            this.bidder = bidder;
            this.price = price;
            this.dateTime = dateTime;
        }
    }

    /** Q8: a person (its name) or an auction (its reserve), keyed by the person id or the seller. */
    public static final class PersonOrAuction {
        public long id;
        public boolean person;
        public String name;
        public long reserve;

        public PersonOrAuction() {
        }

        PersonOrAuction(long id, boolean person, String name, long reserve) {
            this.id = id;
            this.person = person;
            this.name = name;
            this.reserve = reserve;
        }
    }
}
