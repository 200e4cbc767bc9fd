package io.fournines.engine.aggregate;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * How to fold items into a mutable accumulator, merge two accumulators (two-stage aggregation), take
 * one out of another (sliding windows without recombining every frame) and read the result.
 *
 * @param <T> item type
 * @param <A> accumulator type; must implement {@code equals} if the operation can deduct, so an
 *            accumulator back at its empty value can be dropped
 * @param <R> result type
 * @param sumOfLongsFn set when the operation is a sum of longs (counting, summing): the
 *                     accumulator is a {@link LongAccumulator} to which each item adds
 *                     {@code sumOfLongsFn(item)}, combine adds and deduct subtracts. Windows then keep
 *                     such state as primitive longs, with no object per key and frame; null otherwise.
 */
public record AggregateOperation<T, A, R>(
        Supplier<A> createFn,
        BiConsumer<? super A, ? super T> accumulateFn,
        BiConsumer<? super A, ? super A> combineFn,
        BiConsumer<? super A, ? super A> deductFn,
        Function<? super A, ? extends R> finishFn,
        ToLongFunction<? super T> sumOfLongsFn) {

    public AggregateOperation {
        Objects.requireNonNull(createFn, "createFn");
        Objects.requireNonNull(accumulateFn, "accumulateFn");
        Objects.requireNonNull(combineFn, "combineFn");
        Objects.requireNonNull(finishFn, "finishFn");
    }

    /** An operation whose accumulators cannot be taken apart again (a maximum, a top-N). */
    public static <T, A, R> AggregateOperation<T, A, R> of(Supplier<A> createFn, BiConsumer<? super A, ? super T> accumulateFn,
                                                           BiConsumer<? super A, ? super A> combineFn,
                                                           Function<? super A, ? extends R> finishFn) {
        return new AggregateOperation<>(createFn, accumulateFn, combineFn, null, finishFn, null);
    }

    /** An operation that can take one accumulator out of another, so sliding windows slide it. */
    public static <T, A, R> AggregateOperation<T, A, R> of(Supplier<A> createFn, BiConsumer<? super A, ? super T> accumulateFn,
                                                           BiConsumer<? super A, ? super A> combineFn,
                                                           BiConsumer<? super A, ? super A> deductFn,
                                                           Function<? super A, ? extends R> finishFn) {
        return new AggregateOperation<>(createFn, accumulateFn, combineFn, Objects.requireNonNull(deductFn, "deductFn"), finishFn, null);
    }

    /** A sum of {@code valueFn} over the items, kept as a primitive long where that helps. */
    public static <T> AggregateOperation<T, LongAccumulator, Long> sumOfLongs(ToLongFunction<? super T> valueFn) {
        return new AggregateOperation<T, LongAccumulator, Long>(LongAccumulator::new, (acc, item) -> acc.add(valueFn.applyAsLong(item)),
                (acc, other) -> acc.add(other.get()), (acc, other) -> acc.add(-other.get()), LongAccumulator::get, valueFn);
    }

    public boolean isSumOfLongs() {
        return sumOfLongsFn != null;
    }

    public boolean canDeduct() {
        return deductFn != null;
    }

    /** The same aggregation applied to what {@code mapFn} makes of each item. */
    public <S> AggregateOperation<S, A, R> withInput(Function<? super S, ? extends T> mapFn) {
        BiConsumer<? super A, ? super T> accumulate = accumulateFn;
        ToLongFunction<? super T> sum = sumOfLongsFn;
        return new AggregateOperation<S, A, R>(createFn, (acc, item) -> accumulate.accept(acc, mapFn.apply(item)),
                combineFn, deductFn, finishFn, sum == null ? null : item -> sum.applyAsLong(mapFn.apply(item)));
    }

    /** The same aggregation with its result passed through {@code thenFn}. */
    public <R2> AggregateOperation<T, A, R2> andThen(Function<? super R, ? extends R2> thenFn) {
        Function<? super A, ? extends R> finish = finishFn;
        return new AggregateOperation<T, A, R2>(createFn, accumulateFn, combineFn, deductFn, acc -> thenFn.apply(finish.apply(acc)), sumOfLongsFn);
    }

    @SuppressWarnings("unchecked")
    public void accumulate(Object acc, Object item) {
        ((BiConsumer<Object, Object>) accumulateFn).accept(acc, item);
    }

    @SuppressWarnings("unchecked")
    public void combine(Object acc, Object other) {
        ((BiConsumer<Object, Object>) combineFn).accept(acc, other);
    }

    @SuppressWarnings("unchecked")
    public void deduct(Object acc, Object other) {
        ((BiConsumer<Object, Object>) deductFn).accept(acc, other);
    }

    @SuppressWarnings("unchecked")
    public Object finish(Object acc) {
        return ((Function<Object, Object>) finishFn).apply(acc);
    }
}
