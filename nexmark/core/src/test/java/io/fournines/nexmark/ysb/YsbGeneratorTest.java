package io.fournines.nexmark.ysb;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class YsbGeneratorTest {

    private static final long SEED = 42;
    private static final long T0_NANOS = 1_767_225_600_000_000_000L;

    @Test
    void theTableHasTenAdsPerCampaignEachIdAUuidMadeFromTheSeed() {
        YsbAds ads = new YsbAds(SEED, YsbAds.DEFAULT_CAMPAIGNS);
        assertThat(ads.adCount()).isEqualTo(1000);
        Map<String, Integer> adsPerCampaign = new HashMap<>();
        ads.campaignsByAd().values().forEach(c -> adsPerCampaign.merge(c, 1, Integer::sum));
        assertThat(adsPerCampaign).hasSize(100).allSatisfy((campaign, count) -> assertThat(count).isEqualTo(10));
        assertThat(UUID.fromString(ads.adId(0)).version()).isEqualTo(4);
        assertThat(new YsbAds(SEED, 100).campaignsByAd()).isEqualTo(ads.campaignsByAd());
        assertThat(new YsbAds(SEED + 1, 100).adId(0)).isNotEqualTo(ads.adId(0));
        assertThatThrownBy(() -> new YsbAds(SEED, 0)).hasMessageContaining("campaigns must be from 1 to 1000000; got 0");
    }

    @Test
    void eventIDependsOnTheSeedAndIAloneWhateverWasMadeBefore() {
        YsbAds ads = new YsbAds(SEED, 100);
        YsbGenerator one = new YsbGenerator(SEED, ads);
        YsbGenerator other = new YsbGenerator(SEED, ads);
        AdEvent fifth = one.event(5, T0_NANOS + 5_000_000);
        for (long i = 0; i < 5; i++) {
            other.event(i, T0_NANOS);
        }
        assertThat(other.event(5, T0_NANOS + 5_000_000)).isEqualTo(fifth);
        assertThat(fifth.eventTimeMillis()).isEqualTo(T0_NANOS / 1_000_000 + 5);
        assertThat(new YsbGenerator(SEED + 1, ads).event(5, T0_NANOS)).isNotEqualTo(one.event(5, T0_NANOS));
    }

    @Test
    void adsAndTypesAreSpreadAsYsbSpreadsThem() {
        YsbAds ads = new YsbAds(SEED, 100);
        YsbGenerator generator = new YsbGenerator(SEED, ads);
        int n = 300_000;
        Map<String, Integer> types = new HashMap<>();
        Set<String> adsSeen = new HashSet<>();
        Set<String> users = new HashSet<>();
        for (long i = 0; i < n; i++) {
            AdEvent e = generator.event(i, T0_NANOS);
            types.merge(e.eventType(), 1, Integer::sum);
            adsSeen.add(e.adId());
            users.add(e.userId());
            assertThat(ads.campaignOf(e.adId())).isNotNull();
        }
        assertThat(types.keySet()).containsExactlyInAnyOrder("view", "click", "purchase");
        types.values().forEach(count -> assertThat(count / (double) n).isCloseTo(1 / 3.0, within(0.01)));
        assertThat(adsSeen).hasSize(1000);
        assertThat(users).hasSize(100);
    }
}
