package io.fournines.engine.aggregate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/** The built-in aggregations. */
public final class AggregateOperations {

    private AggregateOperations() {
    }

    public static <T> AggregateOperation<T, LongAccumulator, Long> counting() {
        return AggregateOperation.sumOfLongs(item -> 1);
    }

    public static <T> AggregateOperation<T, LongAccumulator, Long> summingLong(ToLongFunction<? super T> valueFn) {
        return AggregateOperation.sumOfLongs(valueFn);
    }

    /** The mean of the values; NaN for no items. */
    public static <T> AggregateOperation<T, SumAndCount, Double> averaging(ToDoubleFunction<? super T> valueFn) {
        return AggregateOperation.of(SumAndCount::new, (SumAndCount acc, T item) -> acc.add(valueFn.applyAsDouble(item)),
                SumAndCount::combine, SumAndCount::deduct, SumAndCount::mean);
    }

    /** The smallest value; null for no items. */
    public static <T> AggregateOperation<T, Holder<Long>, Long> minLong(ToLongFunction<? super T> valueFn) {
        return extremeLong(valueFn, Comparator.naturalOrder());
    }

    /** The largest value; null for no items. */
    public static <T> AggregateOperation<T, Holder<Long>, Long> maxLong(ToLongFunction<? super T> valueFn) {
        return extremeLong(valueFn, Comparator.reverseOrder());
    }

    private static <T> AggregateOperation<T, Holder<Long>, Long> extremeLong(ToLongFunction<? super T> valueFn, Comparator<Long> first) {
        AggregateOperation<Long, Holder<Long>, Long> keepFirst = keepFirstBy(first);
        return keepFirst.withInput(valueFn::applyAsLong);
    }

    /** The item that compares highest; on ties the one seen first. */
    public static <T> AggregateOperation<T, Holder<T>, T> maxBy(Comparator<? super T> comparator) {
        return keepFirstBy(comparator.reversed());
    }

    /** The item that compares lowest; on ties the one seen first. */
    public static <T> AggregateOperation<T, Holder<T>, T> minBy(Comparator<? super T> comparator) {
        return keepFirstBy(comparator);
    }

    /** Keeps the item that comes first in {@code order}; an equal later item does not replace it. */
    private static <T> AggregateOperation<T, Holder<T>, T> keepFirstBy(Comparator<? super T> order) {
        return AggregateOperation.of(Holder::new,
                (Holder<T> acc, T item) -> {
                    if (acc.get() == null || order.compare(item, acc.get()) < 0) {
                        acc.set(item);
                    }
                },
                (Holder<T> acc, Holder<T> other) -> {
                    if (other.get() != null && (acc.get() == null || order.compare(other.get(), acc.get()) < 0)) {
                        acc.set(other.get());
                    }
                },
                Holder::get);
    }

    /** The {@code n} highest items, highest first. */
    public static <T> AggregateOperation<T, PriorityQueue<T>, List<T>> topN(int n, Comparator<? super T> comparator) {
        if (n < 1) {
            throw new IllegalArgumentException("topN needs n >= 1, got " + n);
        }
        return AggregateOperation.of(() -> new PriorityQueue<T>(comparator),
                (PriorityQueue<T> heap, T item) -> offerBounded(heap, item, n, comparator),
                (PriorityQueue<T> heap, PriorityQueue<T> other) -> other.forEach(item -> offerBounded(heap, item, n, comparator)),
                heap -> {
                    List<T> sorted = new ArrayList<>(heap);
                    sorted.sort(comparator.reversed());
                    return sorted;
                });
    }

    private static <T> void offerBounded(PriorityQueue<T> heap, T item, int n, Comparator<? super T> comparator) {
        if (heap.size() < n) {
            heap.add(item);
        } else if (comparator.compare(item, heap.peek()) > 0) {
            heap.poll();
            heap.add(item);
        }
    }

    /** Every item, in arrival order within each stage. */
    public static <T> AggregateOperation<T, List<T>, List<T>> toList() {
        return AggregateOperation.of(ArrayList::new, List::add, List::addAll, ArrayList::new);
    }
}
