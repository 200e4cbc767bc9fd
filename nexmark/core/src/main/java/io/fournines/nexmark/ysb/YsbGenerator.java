package io.fournines.nexmark.ysb;

import io.fournines.nexmark.generator.EventRandom;

/**
 * Deterministic YSB events: event i's ad, types, user, page and address are functions of the seed
 * and i alone (its own {@link EventRandom} stream), so every run, and every split of the sequence
 * over threads or load generators, makes the same events. As YSB's generator: the ad uniform over
 * the table's ads, the user and page over 100 ids each, the event type uniform over view, click and
 * purchase, the ad type over YSB's five.
 * Not thread-safe: one per thread.
 */
public final class YsbGenerator {

    static final String[] EVENT_TYPES = {"view", "click", "purchase"};
    static final String[] AD_TYPES = {"banner", "modal", "sponsored-search", "mail", "mobile"};
    /** YSB's generator draws users and pages from 100 ids each. */
    private static final int USERS = 100;
    private static final int PAGES = 100;

    private final long seed;
    private final YsbAds ads;
    private final String[] users = new String[USERS];
    private final String[] pages = new String[PAGES];
    private final EventRandom random = new EventRandom();

    public YsbGenerator(long seed, YsbAds ads) {
        this.seed = seed;
        this.ads = ads;
        for (int i = 0; i < USERS; i++) {
            users[i] = YsbAds.uuid(random, seed, Long.MIN_VALUE + i);
        }
        for (int i = 0; i < PAGES; i++) {
            pages[i] = YsbAds.uuid(random, seed, Long.MIN_VALUE / 2 + i);
        }
    }

    public AdEvent event(long sequence, long scheduledEpochNanos) {
        random.reset(seed, sequence);
        String ad = ads.adId(random.nextInt(ads.adCount()));
        String eventType = EVENT_TYPES[random.nextInt(EVENT_TYPES.length)];
        String adType = AD_TYPES[random.nextInt(AD_TYPES.length)];
        String user = users[random.nextInt(USERS)];
        String page = pages[random.nextInt(PAGES)];
        int ip = (int) random.nextLong();
        String address = (ip >>> 24) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
        return new AdEvent(user, page, ad, adType, eventType, Math.floorDiv(scheduledEpochNanos, 1_000_000L), address);
    }
}
