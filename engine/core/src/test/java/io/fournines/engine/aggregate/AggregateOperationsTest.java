package io.fournines.engine.aggregate;

import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each operation folded in two halves and combined, the way two-stage aggregation uses it. */
class AggregateOperationsTest {

    record Bid(String bidder, long price) {
    }

    private static final List<Bid> BIDS = List.of(new Bid("a", 5), new Bid("b", 9), new Bid("c", 1), new Bid("d", 9), new Bid("e", 4));

    /** Accumulates the first half and the second half separately, then combines: stage 1 on two cores, stage 2. */
    private static <T, A, R> R twoStage(AggregateOperation<T, A, R> op, List<T> items) {
        A left = op.createFn().get();
        A right = op.createFn().get();
        for (int i = 0; i < items.size(); i++) {
            op.accumulate(i < items.size() / 2 ? left : right, items.get(i));
        }
        op.combine(left, right);
        @SuppressWarnings("unchecked")
        R result = (R) op.finish(left);
        return result;
    }

    @Test
    void countingAndSumming() {
        assertThat(twoStage(AggregateOperations.<Bid>counting(), BIDS)).isEqualTo(5L);
        assertThat(twoStage(AggregateOperations.summingLong(Bid::price), BIDS)).isEqualTo(28L);
    }

    @Test
    void minimumAndMaximum() {
        assertThat(twoStage(AggregateOperations.minLong(Bid::price), BIDS)).isEqualTo(1L);
        assertThat(twoStage(AggregateOperations.maxLong(Bid::price), BIDS)).isEqualTo(9L);
        assertThat(twoStage(AggregateOperations.maxLong(Bid::price), List.of())).isNull();
    }

    @Test
    void maxByAndMinByKeepTheFirstOfEqualItems() {
        Comparator<Bid> byPrice = Comparator.comparingLong(Bid::price);
        assertThat(twoStage(AggregateOperations.maxBy(byPrice), BIDS)).isEqualTo(new Bid("b", 9));
        assertThat(twoStage(AggregateOperations.minBy(byPrice), BIDS)).isEqualTo(new Bid("c", 1));
    }

    @Test
    void averagingAndItsDeduction() {
        AggregateOperation<Bid, SumAndCount, Double> avg = AggregateOperations.averaging(Bid::price);
        assertThat(twoStage(avg, BIDS)).isEqualTo(5.6);
        assertThat(twoStage(avg, List.of())).isNaN();
        SumAndCount all = avg.createFn().get();
        SumAndCount firstTwo = avg.createFn().get();
        BIDS.forEach(b -> avg.accumulate(all, b));
        BIDS.subList(0, 2).forEach(b -> avg.accumulate(firstTwo, b));
        avg.deduct(all, firstTwo);
        assertThat(all.mean()).isEqualTo((1 + 9 + 4) / 3.0);
    }

    @Test
    void topNIsSortedHighestFirstAndBounded() {
        assertThat(twoStage(AggregateOperations.topN(3, Comparator.comparingLong(Bid::price).thenComparing(Bid::bidder)), BIDS))
                .containsExactly(new Bid("d", 9), new Bid("b", 9), new Bid("a", 5));
    }

    @Test
    void toListKeepsEveryItem() {
        assertThat(twoStage(AggregateOperations.<Bid>toList(), BIDS)).containsExactlyElementsOf(BIDS);
    }

    @Test
    void countingIsASumOfLongsSoWindowsKeepItPrimitive() {
        assertThat(AggregateOperations.counting().isSumOfLongs()).isTrue();
        assertThat(AggregateOperations.summingLong(Bid::price).isSumOfLongs()).isTrue();
        assertThat(AggregateOperations.averaging(Bid::price).isSumOfLongs()).isFalse();
        assertThat(AggregateOperations.summingLong(Bid::price).withInput((String s) -> new Bid(s, s.length())).isSumOfLongs()).isTrue();
    }
}
