package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.AuctionPrice;
import io.fournines.nexmark.query.BidWithSideInput;
import io.fournines.nexmark.query.CategoryAverage;
import io.fournines.nexmark.query.EuroBid;
import io.fournines.nexmark.query.HighestBid;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.LocalItemSuggestion;
import io.fournines.nexmark.query.NewUserAuction;
import io.fournines.nexmark.query.SellerAverage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Hand-made inputs small enough to work out each expected result by hand. */
class ReferenceQueriesTest {

    private static Bid bid(long auction, long bidder, long price, long time) {
        return new Bid(auction, bidder, price, time, "");
    }

    private static Person person(long id, String name, String state, long time) {
        return new Person(id, name, "e@x.com", "0000 0000 0000 0000", "Bend", state, time, "");
    }

    private static Auction auction(long id, long seller, long category, long reserve, long time, long expires) {
        return new Auction(id, "item", "desc", 1, reserve, time, expires, seller, category, "");
    }

    private static List<Event> shuffled(List<Event> events) {
        List<Event> copy = new ArrayList<>(events);
        Collections.shuffle(copy, new Random(1));
        return copy;
    }

    @Test
    void windowsHoldingATimeAreEnumeratedFromEpochZero() {
        assertThat(ReferenceWindows.startsOfWindowsHolding(25, 30, 10)).containsExactly(0L, 10L, 20L);
        assertThat(ReferenceWindows.startsOfWindowsHolding(30, 30, 10)).containsExactly(10L, 20L, 30L);
        assertThat(ReferenceWindows.startsOfWindowsHolding(-5, 10, 5)).containsExactly(-10L, -5L);
        assertThat(ReferenceWindows.startsOfWindowsHolding(9, 10, 10)).containsExactly(0L);
        assertThat(ReferenceWindows.startsOfWindowsHolding(10, 10, 10)).containsExactly(10L);
    }

    @Test
    void q0PassesEverythingThroughInOrder() {
        List<Event> events = List.of(bid(1, 2, 3, 4), person(1, "A B", "OR", 0), auction(1, 1, 10, 5, 0, 9));
        assertThat(Q0Reference.run(events)).isEqualTo(events);
    }

    @Test
    void q1ConvertsBidPricesRoundingDown() {
        List<Event> events = List.of(bid(1, 2, 101, 7), person(1, "A B", "OR", 0), bid(3, 4, 100, 8), bid(5, 6, 1, 9));
        assertThat(Q1Reference.run(events)).containsExactly(
                new EuroBid(1, 2, 89, 7), new EuroBid(3, 4, 89, 8), new EuroBid(5, 6, 0, 9));
    }

    @Test
    void q2SelectsBidsOnMultiplesOfTheSkip() {
        List<Event> events = List.of(bid(123, 1, 10, 0), bid(124, 1, 20, 0), bid(246, 1, 30, 0), bid(0, 1, 40, 0));
        assertThat(Q2Reference.run(events, 123)).containsExactly(
                new AuctionPrice(123, 10), new AuctionPrice(246, 30), new AuctionPrice(0, 40));
        assertThat(Q2Reference.run(events, 124)).extracting(AuctionPrice::auction).containsExactly(124L, 0L);
    }

    @Test
    void q3JoinsLocalSellersWithCategoryTenAuctionsWhicheverComesFirst() {
        List<Event> events = List.of(
                auction(500, 7, 10, 1, 0, 10),          // before its seller: still joins
                person(7, "Kate Smith", "OR", 5),
                person(8, "Paul White", "WA", 5),       // not a local state
                auction(501, 8, 10, 1, 6, 10),
                auction(502, 7, 11, 1, 6, 10),          // not category 10
                person(7, "Luke Jones", "CA", 9));      // the id recycled: pairs too
        assertThat(Q3Reference.run(events)).containsExactly(
                new LocalItemSuggestion("Kate Smith", "Bend", "OR", 500),
                new LocalItemSuggestion("Luke Jones", "Bend", "CA", 500));
    }

    @Test
    void q4AveragesWinningPricesPerCategoryOverSlidingWindowsOfCloseTime() {
        List<Event> events = List.of(
                auction(1, 9, 10, 50, 0, 15),
                bid(1, 2, 100, 3),
                bid(1, 3, 100, 1),                      // equal price: the earlier wins, same price either way
                bid(1, 4, 40, 4),                       // below reserve
                bid(1, 5, 900, 15),                     // at expiry: too late
                auction(2, 9, 10, 50, 2, 12),
                bid(2, 4, 201, 11),
                bid(2, 4, 500, 1),                      // before the auction opened
                auction(3, 9, 11, 1000, 2, 12),
                bid(3, 4, 999, 5),                      // below reserve: no winner, no result
                auction(4, 9, 12, 1, 20, 35),
                bid(4, 4, 7, 21));
        List<CategoryAverage> expected = List.of(
                new CategoryAverage(0, 20, 10, 150),    // (100 + 201) / 2, rounded down
                new CategoryAverage(10, 30, 10, 150),
                new CategoryAverage(20, 40, 12, 7),
                new CategoryAverage(30, 50, 12, 7));
        assertThat(Q4Reference.run(events, 20, 10)).isEqualTo(expected);
        assertThat(Q4Reference.run(shuffled(events), 20, 10)).isEqualTo(expected);
    }

    @Test
    void q5EmitsEveryAuctionTiedForMostBidsAndSkipsEmptyWindows() {
        List<Event> events = List.of(
                bid(1, 0, 1, 1), bid(1, 0, 1, 2), bid(2, 0, 1, 3), bid(2, 0, 1, 14), bid(3, 0, 1, 15),
                person(5, "A B", "OR", 25),             // not a bid: window [20, 30) stays empty
                bid(4, 0, 1, 41));
        List<HotItem> expected = List.of(
                new HotItem(-10, 10, 1, 2),
                new HotItem(0, 20, 1, 2), new HotItem(0, 20, 2, 2),   // tie
                new HotItem(10, 30, 2, 1), new HotItem(10, 30, 3, 1), // tie of ones
                new HotItem(30, 50, 4, 1),
                new HotItem(40, 60, 4, 1));
        assertThat(Q5Reference.run(events, 20, 10)).isEqualTo(expected);
        assertThat(Q5Reference.run(shuffled(events), 20, 10)).isEqualTo(expected);
    }

    @Test
    void q6AveragesEachSellersLastTenWinningPricesInCloseOrder() {
        List<Event> events = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            // Seller 1 closes auction i at time 10 i with winning price 10 i.
            events.add(auction(i, 1, 10, 0, 0, 10L * i));
            events.add(bid(i, 2, 10L * i, 1));
        }
        events.add(auction(100, 2, 10, 0, 0, 35));
        events.add(bid(100, 3, 7, 1));
        events.add(auction(101, 2, 10, 0, 0, 35));  // same close time as 100: ordered by id
        events.add(bid(101, 3, 8, 1));
        List<SellerAverage> results = Q6Reference.run(shuffled(events));
        assertThat(results).filteredOn(r -> r.seller() == 1).extracting(SellerAverage::average)
                .containsExactly(10L, 15L, 20L, 25L, 30L, 35L, 40L, 45L, 50L, 55L,
                        65L,   // 20 + ... + 110 over 10
                        75L);  // 30 + ... + 120 over 10
        assertThat(results).filteredOn(r -> r.seller() == 2)
                .containsExactly(new SellerAverage(2, 100, 7, 35), new SellerAverage(2, 101, 7, 35));
        assertThat(results).extracting(SellerAverage::dateTime).isSorted();
    }

    @Test
    void q7EmitsEveryBidAtTheWindowsHighestPrice() {
        List<Event> events = List.of(
                bid(1, 1, 50, 2), bid(2, 2, 70, 3), bid(3, 3, 70, 9),   // tie at 70 in [0, 10)
                bid(4, 4, 10, 10),                                       // alone in [10, 20)
                bid(5, 5, 99, 35));                                      // [20, 30) is empty
        List<HighestBid> expected = List.of(
                new HighestBid(0, 10, 2, 2, 70, 3), new HighestBid(0, 10, 3, 3, 70, 9),
                new HighestBid(10, 20, 4, 4, 10, 10),
                new HighestBid(30, 40, 5, 5, 99, 35));
        assertThat(Q7Reference.run(events, 10)).isEqualTo(expected);
        assertThat(Q7Reference.run(shuffled(events), 10)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void q8JoinsPeopleWithTheAuctionsTheyOpenedInTheSameWindow() {
        List<Event> events = List.of(
                auction(1, 7, 10, 300, 8, 100),          // before its seller in input order
                person(7, "Kate Smith", "OR", 2),
                auction(2, 7, 10, 400, 9, 100),
                auction(3, 7, 10, 500, 10, 100),         // next window
                person(8, "Paul White", "WA", 12),       // no auction
                auction(4, 9, 10, 600, 13, 100));        // seller never created
        List<NewUserAuction> expected = List.of(
                new NewUserAuction(0, 10, 7, "Kate Smith", 300), new NewUserAuction(0, 10, 7, "Kate Smith", 400));
        assertThat(Q8Reference.run(events, 10)).isEqualTo(expected);
        assertThat(Q8Reference.run(shuffled(events), 10)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void q13JoinsBidsWithTheSideInputByBidderModuloRows() {
        Map<Long, String> side = Map.of(0L, "zero", 1L, "one");
        List<Event> events = List.of(bid(1, 1002, 5, 0), bid(2, 1001, 6, 1), bid(3, 1003, 7, 2));
        assertThat(Q13Reference.run(events, side, 4)).containsExactly(
                new BidWithSideInput(2, 1001, 6, 1, "one"));   // 1002 % 4 = 2 and 1003 % 4 = 3 are absent
        assertThat(Q13Reference.run(events, side, 2)).extracting(BidWithSideInput::value)
                .containsExactly("zero", "one", "one");
    }

    @Test
    void generatedEventsGiveEveryQuerySomethingToFind() {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(3).withRate(1_000).withKeys(200));
        List<Event> events = new ArrayList<>();
        for (long i = 0; i < 6_000; i++) {
            events.add(generator.event(i));
        }
        assertThat(Q2Reference.run(events, 123)).isNotEmpty();
        assertThat(Q3Reference.run(events)).isNotEmpty();
        assertThat(Q4Reference.run(events, 2_000, 1_000)).isNotEmpty();
        assertThat(Q5Reference.run(events, 2_000, 500)).hasSizeGreaterThanOrEqualTo(12);
        assertThat(Q6Reference.run(events)).isNotEmpty();
        assertThat(Q7Reference.run(events, 1_000)).hasSizeGreaterThanOrEqualTo(6);
        assertThat(Q8Reference.run(events, 1_000)).isNotEmpty();
    }
}
