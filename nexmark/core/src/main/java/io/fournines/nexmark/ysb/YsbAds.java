package io.fournines.nexmark.ysb;

import io.fournines.nexmark.generator.EventRandom;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * YSB's side table: {@code campaigns} campaigns of {@link #ADS_PER_CAMPAIGN} ads each (YSB's 100 x 10),
 * every id a UUID made from the seed and the ad's or campaign's number, so the generator, the
 * queries and the reference computation agree on them without sharing a store (YSB keeps them in
 * Redis; here every process makes the same table).
 */
public final class YsbAds {

    public static final int ADS_PER_CAMPAIGN = 10;
    public static final int DEFAULT_CAMPAIGNS = 100;
    /** The seed of the table and the events in every process that runs the benchmark: load generators, members, the reference. */
    public static final long SEED = 1;
    private static final long TABLE_SALT = 0x5953_4241_4453_0001L;

    private final String[] adIds;
    private final String[] campaignIds;
    private final Map<String, String> campaignOfAd = new HashMap<>();

    public YsbAds(long seed, int campaigns) {
        if (campaigns < 1 || campaigns > 1_000_000) {
            throw new IllegalArgumentException("campaigns must be from 1 to 1000000; got " + campaigns);
        }
        EventRandom random = new EventRandom();
        campaignIds = new String[campaigns];
        adIds = new String[campaigns * ADS_PER_CAMPAIGN];
        for (int c = 0; c < campaigns; c++) {
            campaignIds[c] = uuid(random, seed, -1 - c);
            for (int a = 0; a < ADS_PER_CAMPAIGN; a++) {
                int ad = c * ADS_PER_CAMPAIGN + a;
                adIds[ad] = uuid(random, seed, ad);
                campaignOfAd.put(adIds[ad], campaignIds[c]);
            }
        }
    }

    /** YSB's table: {@link #DEFAULT_CAMPAIGNS} campaigns from {@link #SEED}. */
    public static YsbAds standard() {
        return new YsbAds(SEED, DEFAULT_CAMPAIGNS);
    }

    public int adCount() {
        return adIds.length;
    }

    public String adId(int ad) {
        return adIds[ad];
    }

    /** The campaign of an ad id, or null for an ad the table does not hold (YSB drops such events). */
    public String campaignOf(String adId) {
        return campaignOfAd.get(adId);
    }

    public Map<String, String> campaignsByAd() {
        return Map.copyOf(campaignOfAd);
    }

    /**
     * A UUID for an id number: ads from 0, campaigns from -1 down, the generator's users and pages from
     * {@code Long.MIN_VALUE} and {@code Long.MIN_VALUE / 2} up; salted apart from the events' streams.
     */
    static String uuid(EventRandom random, long seed, long number) {
        random.reset(seed ^ TABLE_SALT, number);
        long high = random.nextLong();
        long low = random.nextLong();
        // Version 4 and the IETF variant, as a random UUID has them.
        return new UUID((high & ~0xF000L) | 0x4000L, (low & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L).toString();
    }
}
