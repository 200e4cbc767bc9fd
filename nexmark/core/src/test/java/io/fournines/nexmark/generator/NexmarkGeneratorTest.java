package io.fournines.nexmark.generator;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class NexmarkGeneratorTest {
    private static final GeneratorConfig CONFIG = GeneratorConfig.defaults(42);

    @Test
    void everyFiftyEventsAreOnePersonThreeAuctionsAndFortySixBids() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        for (long block = 0; block < 1_000; block++) {
            int persons = 0;
            int auctions = 0;
            int bids = 0;
            for (long offset = 0; offset < 50; offset++) {
                Event event = generator.event(block * 50 + offset);
                if (event instanceof Person) {
                    assertThat(offset).isZero();
                    persons++;
                } else if (event instanceof Auction) {
                    assertThat(offset).isBetween(1L, 3L);
                    auctions++;
                } else {
                    bids++;
                }
            }
            assertThat(new int[] {persons, auctions, bids}).containsExactly(1, 3, 46);
        }
    }

    @Test
    void personAndAuctionIdsCountFrom1000InCreationOrder() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        long nextPerson = 1000;
        long nextAuction = 1000;
        for (long i = 0; i < 10_000; i++) {
            Event event = generator.event(i);
            if (event instanceof Person p) {
                assertThat(p.id()).isEqualTo(nextPerson++);
            } else if (event instanceof Auction a) {
                assertThat(a.id()).isEqualTo(nextAuction++);
                assertThat(a.seller()).isGreaterThanOrEqualTo(1000);
            } else {
                Bid b = (Bid) event;
                assertThat(b.auction()).isGreaterThanOrEqualTo(1000);
                assertThat(b.bidder()).isGreaterThanOrEqualTo(1000);
            }
        }
        assertThat(nextPerson).isEqualTo(1000 + 200);
        assertThat(nextAuction).isEqualTo(1000 + 600);
    }

    @Test
    void sameSeedSameEventsInAnyOrderOfGeneration() {
        NexmarkGenerator forward = new NexmarkGenerator(CONFIG);
        NexmarkGenerator backward = new NexmarkGenerator(CONFIG);
        int n = 20_000;
        List<Event> expected = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            expected.add(forward.event(i));
        }
        for (long i = n - 1; i >= 0; i--) {
            assertThat(backward.event(i)).isEqualTo(expected.get((int) i));
        }
    }

    /** Refilled bids are the same events, in one object: what a consumer reads before the next is all it gets. */
    @Test
    void aGeneratorRefillingBidsMakesTheSameEventsWithOneBidObject() {
        NexmarkGenerator fresh = new NexmarkGenerator(CONFIG.withExtraPadding(true));
        NexmarkGenerator refilling = NexmarkGenerator.refillingBids(CONFIG.withExtraPadding(true));
        Set<Event> bidObjects = Collections.newSetFromMap(new IdentityHashMap<>());
        for (long i = 0; i < 5_000; i++) {
            Event event = refilling.event(i);
            assertThat(event).isEqualTo(fresh.event(i)).hasSameHashCodeAs(fresh.event(i));
            if (event instanceof Bid) {
                bidObjects.add(event);
            }
        }
        assertThat(bidObjects).hasSize(1);
    }

    @Test
    void anotherSeedGivesOtherEvents() {
        NexmarkGenerator a = new NexmarkGenerator(GeneratorConfig.defaults(1));
        NexmarkGenerator b = new NexmarkGenerator(GeneratorConfig.defaults(2));
        int same = 0;
        int n = 10_000;
        for (long i = 0; i < n; i++) {
            if (a.event(i).equals(b.event(i))) {
                same++;
            }
        }
        // Early bids can coincide (few ids exist yet, prices repeat rarely): allow a handful.
        assertThat(same).isLessThan(n / 100);
    }

    @Test
    void dateTimeIsTheScheduledTimeOfTheEvent() {
        GeneratorConfig config = CONFIG.withRate(3).withBaseTime(5_000);
        NexmarkGenerator generator = new NexmarkGenerator(config);
        for (long i = 0; i < 1_000; i++) {
            // Event i is due at i/3 s: floor(i * 1000 / 3) ms after base time.
            assertThat(generator.event(i).dateTime()).isEqualTo(5_000 + i * 1000 / 3);
        }
    }

    @Test
    void hotAuctionsGetOneMinusOneOverRatioOfBids() {
        for (int ratio : new int[] {2, 5}) {
            NexmarkGenerator generator = new NexmarkGenerator(CONFIG.withHotRatios(ratio, 4, 4));
            int bids = 0;
            int hot = 0;
            for (long i = 10_000; i < 110_000; i++) {
                if (generator.event(i) instanceof Bid b) {
                    bids++;
                    long hotAuction = 1000 + NexmarkGenerator.lastBase0AuctionId(i) / 100 * 100;
                    if (b.auction() == hotAuction) {
                        hot++;
                    }
                }
            }
            // A cold choice is uniform over 111 auctions (100 in flight, the newest, 10 ahead),
            // one of them the hot one.
            double expected = (1 - 1.0 / ratio) + (1.0 / ratio) / 111;
            // 92 000 bids: one standard deviation is under 0.0017.
            assertThat((double) hot / bids).as("hot auction share, ratio %d", ratio).isCloseTo(expected, within(0.008));
        }
    }

    @Test
    void hotBiddersGetThreeQuartersOfBidsByDefault() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        int bids = 0;
        int hot = 0;
        // From event 100 000 on there are 2 000 people, so cold bidders come from 1 000 active + 10.
        for (long i = 100_000; i < 200_000; i++) {
            if (generator.event(i) instanceof Bid b) {
                bids++;
                if (b.bidder() == 1000 + NexmarkGenerator.lastBase0PersonId(i) / 100 * 100 + 1) {
                    hot++;
                }
            }
        }
        assertThat((double) hot / bids).isCloseTo(0.75 + 0.25 / 1010, within(0.008));
    }

    @Test
    void hotSellersOpenThreeQuartersOfAuctionsByDefault() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        int auctions = 0;
        int hot = 0;
        for (long epoch = 2_000; epoch < 40_000; epoch++) {
            for (long offset = 1; offset <= 3; offset++) {
                long i = epoch * 50 + offset;
                Auction a = (Auction) generator.event(i);
                auctions++;
                if (a.seller() == 1000 + NexmarkGenerator.lastBase0PersonId(i) / 100 * 100) {
                    hot++;
                }
            }
        }
        // 114 000 auctions: one standard deviation is under 0.0013.
        assertThat((double) hot / auctions).isCloseTo(0.75 + 0.25 / 1010, within(0.007));
    }

    @Test
    void categoriesAreTheFiveFromTen() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        Set<Long> categories = new HashSet<>();
        for (long i = 1; i < 50_000; i += 50) {
            categories.add(((Auction) generator.event(i)).category());
        }
        assertThat(categories).containsExactlyInAnyOrder(10L, 11L, 12L, 13L, 14L);
    }

    @Test
    void auctionsExpireAfterCreationAndLastAboutAsLongAsHundredAuctionsTakeToCreate() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG.withRate(10_000));
        long totalLength = 0;
        int auctions = 0;
        for (long i = 0; i < 500_000; i++) {
            if (generator.event(i) instanceof Auction a) {
                assertThat(a.expires()).isGreaterThan(a.dateTime());
                totalLength += a.expires() - a.dateTime();
                auctions++;
            }
        }
        // 100 auctions take 100 * 50 / 3 = 1 666 events, 166 ms at 10 000 events/s; lengths are
        // uniform in [1, 2 * 166] ms.
        assertThat((double) totalLength / auctions).isCloseTo(167.0, within(3.0));
    }

    @Test
    void pricesAreLogUniformBetweenOneAndAMillionDollars() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        int belowTenDollars = 0;
        int bids = 0;
        for (long i = 0; i < 100_000; i++) {
            Event event = generator.event(i);
            if (event instanceof Bid b) {
                assertThat(b.price()).isBetween(100L, 100_000_000L);
                bids++;
                if (b.price() < 1_000) {
                    belowTenDollars++;
                }
            } else if (event instanceof Auction a) {
                assertThat(a.reserve()).isGreaterThan(a.initialBid());
            }
        }
        // Log-uniform over six decades: one sixth below $10.
        assertThat((double) belowTenDollars / bids).isCloseTo(1.0 / 6, within(0.01));
    }

    @Test
    void keysBoundEveryIdToTheFirstKIds() {
        long keys = 1_000;
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG.withKeys(keys));
        Set<Long> bidAuctions = new HashSet<>();
        Set<Long> bidders = new HashSet<>();
        for (long i = 0; i < 2_000_000; i++) {
            Event event = generator.event(i);
            if (event instanceof Person p) {
                assertThat(p.id()).isBetween(1000L, 1000 + keys - 1);
            } else if (event instanceof Auction a) {
                assertThat(a.id()).isBetween(1000L, 1000 + keys - 1);
                assertThat(a.seller()).isBetween(1000L, 1000 + keys - 1);
            } else {
                Bid b = (Bid) event;
                bidAuctions.add(b.auction());
                bidders.add(b.bidder());
            }
        }
        // Every id is used, and none beyond the bound.
        assertThat(bidAuctions).hasSize((int) keys).allMatch(id -> id >= 1000 && id < 1000 + keys);
        assertThat(bidders).hasSize((int) keys).allMatch(id -> id >= 1000 && id < 1000 + keys);
    }

    @Test
    void withoutKeysIdsKeepGrowing() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
        assertThat(((Person) generator.event(50L * 5_000)).id()).isEqualTo(6_000);
        assertThat(((Auction) generator.event(50L * 5_000 + 3)).id()).isEqualTo(1000 + 3 * 5_000 + 2);
    }

    @Test
    void paddingBringsBidsToBeamsAverageSize() {
        NexmarkGenerator generator = new NexmarkGenerator(CONFIG.withExtraPadding(true));
        long extra = 0;
        int bids = 0;
        for (long i = 0; i < 50_000; i++) {
            if (generator.event(i) instanceof Bid b) {
                // 100 bytes less 4 longs is 68 +- 20 %.
                assertThat(b.extra().length()).isBetween(54, 81);
                extra += b.extra().length();
                bids++;
            }
        }
        assertThat((double) extra / bids).isCloseTo(67.5, within(0.5));
        assertThat(((Bid) new NexmarkGenerator(CONFIG).event(4)).extra()).isEmpty();
    }

    @Test
    void negativeEventIdsAreRejected() {
        assertThatThrownBy(() -> new NexmarkGenerator(CONFIG).event(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
