package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperation;

import java.util.function.ToLongFunction;

/**
 * Accumulator of an integer mean rounded down (Q4's and Q6's averages): an exact long sum and count,
 * where a mean of doubles could round {@code q - ε} up to {@code q}. It can deduct, so sliding
 * windows slide it instead of recombining every frame.
 */
final class FloorMean {

    private long sum;
    private long count;

    static <T> AggregateOperation<T, FloorMean, Long> of(ToLongFunction<? super T> valueFn) {
        return AggregateOperation.of(FloorMean::new,
                (FloorMean acc, T item) -> acc.add(valueFn.applyAsLong(item), 1),
                (acc, other) -> acc.add(other.sum, other.count),
                (acc, other) -> acc.add(-other.sum, -other.count),
                FloorMean::mean);
    }

    void add(long value, long n) {
        sum += value;
        count += n;
    }

    /** Null when empty: there is no mean of nothing. */
    Long mean() {
        return count == 0 ? null : Math.floorDiv(sum, count);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FloorMean other && other.sum == sum && other.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(sum) * 31 + Long.hashCode(count);
    }
}
