package io.fournines.nexmark.ysb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * YSB's query computed the plain way, as the reference the engine's results are checked against:
 * views only, each ad joined to its campaign (events of an ad the table does not hold are dropped,
 * as YSB drops them), counted per campaign in tumbling windows of {@code windowMillis} (YSB's 10 s)
 * by event time. Results in window order, then campaign.
 */
public final class YsbReference {

    public static final long WINDOW_MILLIS = 10_000;

    /** One campaign's views in the window ending at {@code windowEndMillis} (exclusive). */
    public record CampaignCount(long windowEndMillis, String campaignId, long views) {
    }

    private YsbReference() {
    }

    public static List<CampaignCount> counts(Iterable<AdEvent> events, YsbAds ads, long windowMillis) {
        if (windowMillis < 1) {
            throw new IllegalArgumentException("windowMillis must be at least 1; got " + windowMillis);
        }
        TreeMap<Long, TreeMap<String, Long>> windows = new TreeMap<>();
        for (AdEvent e : events) {
            String campaign = e.isView() ? ads.campaignOf(e.adId()) : null;
            if (campaign != null) {
                long end = Math.floorDiv(e.eventTimeMillis(), windowMillis) * windowMillis + windowMillis;
                windows.computeIfAbsent(end, w -> new TreeMap<>()).merge(campaign, 1L, Long::sum);
            }
        }
        List<CampaignCount> out = new ArrayList<>();
        for (Map.Entry<Long, TreeMap<String, Long>> w : windows.entrySet()) {
            w.getValue().forEach((campaign, views) -> out.add(new CampaignCount(w.getKey(), campaign, views)));
        }
        return out;
    }
}
