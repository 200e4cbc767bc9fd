package io.fournines.nexmark.generator;

/**
 * Everything that determines the generated event sequence: event {@code i} is a pure function of
 * this configuration and {@code i}. Defaults are Beam NEXMark's.
 *
 * @param seed                mixed into every event's randomness; same seed, same events
 * @param baseTime            scheduled time of event 0, epoch millis ({@code t0})
 * @param rate                events per second of all generators together; event {@code i} is
 *                            scheduled at {@code t0 + i / rate}
 * @param keys                number of distinct person ids and of distinct auction ids, or 0 for
 *                            Beam's ever-growing id space. With {@code keys = K}, every id Beam would
 *                            give as {@code 1000 + b} becomes {@code 1000 + b % K}: person ids,
 *                            sellers and bidders lie in {@code [1000, 1000 + K)}, and so do auction
 *                            ids and the auctions bids refer to. Ids are recycled, so a person or
 *                            auction id is reused every {@code 50 K} (persons) or {@code 50 K / 3}
 *                            (auctions) events. Choose K a multiple of 100 so hot-key batches stay
 *                            aligned.
 * @param hotAuctionRatio     a bid goes to the hot auction with probability {@code 1 - 1/ratio}
 * @param hotBiddersRatio     a bid comes from the hot bidder with probability {@code 1 - 1/ratio}
 * @param hotSellersRatio     an auction is sold by the hot seller with probability {@code 1 - 1/ratio}
 * @param numActivePeople     cold sellers and bidders are drawn from the newest this-many people
 * @param numInFlightAuctions cold bids go to the newest this-many auctions; also sets expiry: an
 *                            auction lasts on average until this many more auctions were created
 * @param extraPadding        fill {@code extra} so events average Beam's sizes (person 200, auction
 *                            500, bid 100 bytes); off by default, because padding costs generation
 *                            time and bytes without changing what any query computes
 */
public record GeneratorConfig(
        long seed,
        long baseTime,
        long rate,
        long keys,
        int hotAuctionRatio,
        int hotBiddersRatio,
        int hotSellersRatio,
        int numActivePeople,
        int numInFlightAuctions,
        boolean extraPadding) {

    /** Beam's deterministic base time, 2015-07-15T00:00:00Z. */
    public static final long BEAM_BASE_TIME = 1_436_918_400_000L;
    /** Beam's default event rate (events per second). */
    public static final long DEFAULT_RATE = 10_000;
    /** One event per nanosecond: the finest the schedule can express. */
    public static final long MAX_RATE = EventSchedule.MAX_RATE;

    public GeneratorConfig {
        if (rate <= 0 || rate > MAX_RATE) {
            throw new IllegalArgumentException("rate must be between 1 and " + MAX_RATE + " events/s, got " + rate);
        }
        if (keys < 0) {
            throw new IllegalArgumentException("keys must be 0 (unbounded) or positive, got " + keys);
        }
        requirePositive("hotAuctionRatio", hotAuctionRatio);
        requirePositive("hotBiddersRatio", hotBiddersRatio);
        requirePositive("hotSellersRatio", hotSellersRatio);
        requirePositive("numActivePeople", numActivePeople);
        requirePositive("numInFlightAuctions", numInFlightAuctions);
    }

    /** Beam's defaults with the given seed: base time 2015-07-15, 10 000 events/s, unbounded ids. */
    public static GeneratorConfig defaults(long seed) {
        return new GeneratorConfig(seed, BEAM_BASE_TIME, DEFAULT_RATE, 0, 2, 4, 4, 1000, 100, false);
    }

    public GeneratorConfig withBaseTime(long baseTime) {
        return new GeneratorConfig(seed, baseTime, rate, keys, hotAuctionRatio, hotBiddersRatio,
                hotSellersRatio, numActivePeople, numInFlightAuctions, extraPadding);
    }

    public GeneratorConfig withRate(long rate) {
        return new GeneratorConfig(seed, baseTime, rate, keys, hotAuctionRatio, hotBiddersRatio,
                hotSellersRatio, numActivePeople, numInFlightAuctions, extraPadding);
    }

    public GeneratorConfig withKeys(long keys) {
        return new GeneratorConfig(seed, baseTime, rate, keys, hotAuctionRatio, hotBiddersRatio,
                hotSellersRatio, numActivePeople, numInFlightAuctions, extraPadding);
    }

    public GeneratorConfig withHotRatios(int hotAuctionRatio, int hotBiddersRatio, int hotSellersRatio) {
        return new GeneratorConfig(seed, baseTime, rate, keys, hotAuctionRatio, hotBiddersRatio,
                hotSellersRatio, numActivePeople, numInFlightAuctions, extraPadding);
    }

    public GeneratorConfig withExtraPadding(boolean extraPadding) {
        return new GeneratorConfig(seed, baseTime, rate, keys, hotAuctionRatio, hotBiddersRatio,
                hotSellersRatio, numActivePeople, numInFlightAuctions, extraPadding);
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }
}
