package io.fournines.nexmark.ysb;

import io.fournines.nexmark.ysb.YsbReference.CampaignCount;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class YsbReferenceTest {

    @Test
    void viewsOfKnownAdsAreCountedPerCampaignInTumblingWindows() {
        YsbAds ads = new YsbAds(1, 2);
        String adOfFirst = ads.adId(0);
        String otherAdOfFirst = ads.adId(9);
        String adOfSecond = ads.adId(10);
        String first = ads.campaignOf(adOfFirst);
        String second = ads.campaignOf(adOfSecond);
        List<AdEvent> events = List.of(
                event(adOfFirst, "view", 0),
                event(otherAdOfFirst, "view", 9_999),
                event(adOfSecond, "view", 5_000),
                event(adOfFirst, "click", 5_000),        // not a view
                event("no-such-ad", "view", 5_000),     // not in the table: dropped
                event(adOfFirst, "view", 10_000));      // the next window
        assertThat(YsbReference.counts(events, ads, YsbReference.WINDOW_MILLIS)).containsExactly(
                new CampaignCount(10_000, min(first, second), first.compareTo(second) < 0 ? 2 : 1),
                new CampaignCount(10_000, max(first, second), first.compareTo(second) < 0 ? 1 : 2),
                new CampaignCount(20_000, first, 1));
    }

    private static AdEvent event(String ad, String type, long millis) {
        return new AdEvent("u", "p", ad, "banner", type, millis, "10.0.0.1");
    }

    private static String min(String a, String b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    private static String max(String a, String b) {
        return a.compareTo(b) < 0 ? b : a;
    }
}
