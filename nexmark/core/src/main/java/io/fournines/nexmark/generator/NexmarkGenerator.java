package io.fournines.nexmark.generator;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

/**
 * Beam NEXMark's event generator, rewritten so that event {@code i} is a pure function of
 * ({@link GeneratorConfig}, {@code i}): {@link #event(long)} may be called for any id in any order.
 *
 * <p>Of every 50 consecutive event ids, {@code i % 50 == 0} is a person, 1..3 are auctions and
 * 4..49 are bids (1:3:46). Person and auction ids count their own kind from 1000. Hot keys follow
 * Beam: the hot auction is the first of the newest batch of 100 auctions, the hot seller the first
 * and the hot bidder the second of the newest batch of 100 people. Cold choices are uniform over the
 * newest {@code numActivePeople} people (or {@code numInFlightAuctions} auctions) plus a lead of 10
 * ids that do not exist yet, as in Beam, so some bids and auctions arrive before their referents.
 *
 * <p>Not thread-safe (it reuses its random stream and text buffer); use one per thread.
 */
public final class NexmarkGenerator {
    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    public static final int NUM_CATEGORIES = 5;

    static final int PERSON_PROPORTION = 1;
    static final int AUCTION_PROPORTION = 3;
    static final int PROPORTION_DENOMINATOR = 50;

    /** Hot keys are the first of each batch of this many ids. */
    private static final int HOT_BATCH = 100;
    /** Cold choices may pick this many ids beyond the newest one. */
    private static final int PERSON_ID_LEAD = 10;
    private static final int AUCTION_ID_LEAD = 10;

    private static final String[] FIRST_NAMES =
            {"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"};
    private static final String[] LAST_NAMES =
            {"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
    /** Every "first last" combination, built once so a person's name costs no allocation. */
    private static final String[] NAMES = fullNames();
    private static final String[] CITIES =
            {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle",
             "Kent", "Cheyenne"};
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};

    /** Beam's average serialized sizes, used only with {@link GeneratorConfig#extraPadding()}. */
    private static final int PERSON_BYTES = 200;
    private static final int AUCTION_BYTES = 500;
    private static final int BID_BYTES = 100;
    private static final int LONG_BYTES = 8;

    private final GeneratorConfig config;
    private final EventSchedule schedule;
    /** Events between an auction and the one {@code numInFlightAuctions} auctions later. */
    private final long eventsPerInFlightAuctions;
    private final EventRandom random = new EventRandom();
    private final RandomText text = new RandomText();
    /** Null: a new object per bid. */
    private final Bid.Refilled refilledBid;

    public NexmarkGenerator(GeneratorConfig config) {
        this(config, null);
    }

    private NexmarkGenerator(GeneratorConfig config, Bid.Refilled refilledBid) {
        this.config = config;
        this.refilledBid = refilledBid;
        this.schedule = new EventSchedule(config.rate());
        this.eventsPerInFlightAuctions =
                (long) config.numInFlightAuctions() * PROPORTION_DENOMINATOR / AUCTION_PROPORTION;
    }

    /**
     * A generator of the same events whose bids are one object, refilled for each: for a consumer
     * that keeps nothing of a bid once it has asked for the next event ({@link Bid.Refilled}).
     */
    public static NexmarkGenerator refillingBids(GeneratorConfig config) {
        return new NexmarkGenerator(config, new Bid.Refilled());
    }

    public EventSchedule schedule() {
        return schedule;
    }

    /** The event with global id {@code eventId} (0-based). */
    public Event event(long eventId) {
        return event(eventId, config.baseTime() + schedule.offsetMillis(eventId));
    }

    /**
     * The event with global id {@code eventId}, scheduled at {@code dateTime} instead of base time
     * + offset: for a source that paces emission on its own clock, so an event's time is exactly
     * when it was due. Everything else, auction lengths included, is as {@link #event(long)} makes it.
     */
    public Event event(long eventId, long dateTime) {
        if (eventId < 0) {
            throw new IllegalArgumentException("event id must not be negative, got " + eventId);
        }
        random.reset(config.seed(), eventId);
        long offset = eventId % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            return person(eventId, dateTime);
        }
        if (offset < PERSON_PROPORTION + AUCTION_PROPORTION) {
            return auction(eventId, dateTime);
        }
        return bid(eventId, dateTime);
    }

    private Person person(long eventId, long dateTime) {
        long id = personId(lastBase0PersonId(eventId));
        String name = NAMES[random.nextInt(NAMES.length)];
        String email = text.text(random, 7) + '@' + text.text(random, 5) + ".com";
        String creditCard = text.creditCard(random);
        String city = CITIES[random.nextInt(CITIES.length)];
        String state = STATES[random.nextInt(STATES.length)];
        String extra = "";
        if (config.extraPadding()) {
            int size = 2 * LONG_BYTES + name.length() + email.length() + creditCard.length()
                    + city.length() + state.length();
            extra = text.padding(random, size, PERSON_BYTES);
        }
        return new Person(id, name, email, creditCard, city, state, dateTime, extra);
    }

    private Auction auction(long eventId, long dateTime) {
        long id = auctionId(lastBase0AuctionId(eventId));
        long seller;
        if (isHot(config.hotSellersRatio())) {
            seller = lastBase0PersonId(eventId) / HOT_BATCH * HOT_BATCH;
        } else {
            seller = coldBase0PersonId(eventId);
        }
        long category = FIRST_CATEGORY_ID + random.nextInt(NUM_CATEGORIES);
        long initialBid = price();
        long reserve = initialBid + price();
        long expires = dateTime + auctionLengthMillis(eventId);
        String itemName = text.text(random, 3, 20);
        String description = text.text(random, 3, 100);
        String extra = "";
        if (config.extraPadding()) {
            int size = 7 * LONG_BYTES + itemName.length() + description.length();
            extra = text.padding(random, size, AUCTION_BYTES);
        }
        return new Auction(id, itemName, description, initialBid, reserve, dateTime, expires,
                personId(seller), category, extra);
    }

    private Bid bid(long eventId, long dateTime) {
        long auction;
        if (isHot(config.hotAuctionRatio())) {
            auction = lastBase0AuctionId(eventId) / HOT_BATCH * HOT_BATCH;
        } else {
            auction = coldBase0AuctionId(eventId);
        }
        long bidder;
        if (isHot(config.hotBiddersRatio())) {
            // The second of the batch, so the hot bidder is never the hot seller.
            bidder = lastBase0PersonId(eventId) / HOT_BATCH * HOT_BATCH + 1;
        } else {
            bidder = coldBase0PersonId(eventId);
        }
        long price = price();
        String extra = config.extraPadding() ? text.padding(random, 4 * LONG_BYTES, BID_BYTES) : "";
        return refilledBid == null
                ? new Bid(auctionId(auction), personId(bidder), price, dateTime, extra)
                : refilledBid.next(auctionId(auction), personId(bidder), price, dateTime, extra);
    }

    /** True with probability {@code 1 - 1/ratio}. */
    private boolean isHot(int ratio) {
        return random.nextInt(ratio) > 0;
    }

    /** Beam's price in cents: log-uniform between $1 and $1 000 000. */
    private long price() {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    /**
     * Uniform in {@code [1, 2h]} where {@code h} is the time until {@code numInFlightAuctions} more
     * auctions will have been created: on average that many auctions are open at once, whatever
     * the rate.
     */
    private long auctionLengthMillis(long eventId) {
        long horizon = schedule.offsetMillis(eventId + eventsPerInFlightAuctions) - schedule.offsetMillis(eventId);
        return 1 + random.nextLong(Math.max(2 * horizon, 1));
    }

    private long coldBase0PersonId(long eventId) {
        long numPeople = lastBase0PersonId(eventId) + 1;
        long active = Math.min(numPeople, config.numActivePeople());
        return numPeople - active + random.nextLong(active + PERSON_ID_LEAD);
    }

    private long coldBase0AuctionId(long eventId) {
        long newest = lastBase0AuctionId(eventId);
        long oldest = Math.max(newest - config.numInFlightAuctions(), 0);
        return oldest + random.nextLong(newest - oldest + 1 + AUCTION_ID_LEAD);
    }

    /** 0-based id of the newest person created at or before {@code eventId}. */
    static long lastBase0PersonId(long eventId) {
        long epoch = eventId / PROPORTION_DENOMINATOR;
        long offset = Math.min(eventId % PROPORTION_DENOMINATOR, PERSON_PROPORTION - 1);
        return epoch * PERSON_PROPORTION + offset;
    }

    /** 0-based id of the newest auction created at or before {@code eventId}; -1 before the first. */
    static long lastBase0AuctionId(long eventId) {
        long epoch = eventId / PROPORTION_DENOMINATOR;
        long offset = eventId % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            epoch--;
            offset = AUCTION_PROPORTION - 1;
        } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
            offset = AUCTION_PROPORTION - 1;
        } else {
            offset -= PERSON_PROPORTION;
        }
        return epoch * AUCTION_PROPORTION + offset;
    }

    private long personId(long base0) {
        return FIRST_PERSON_ID + bounded(base0);
    }

    private long auctionId(long base0) {
        return FIRST_AUCTION_ID + bounded(base0);
    }

    private long bounded(long base0) {
        return config.keys() == 0 ? base0 : base0 % config.keys();
    }

    private static String[] fullNames() {
        String[] names = new String[FIRST_NAMES.length * LAST_NAMES.length];
        int i = 0;
        for (String first : FIRST_NAMES) {
            for (String last : LAST_NAMES) {
                names[i++] = first + ' ' + last;
            }
        }
        return names;
    }
}
