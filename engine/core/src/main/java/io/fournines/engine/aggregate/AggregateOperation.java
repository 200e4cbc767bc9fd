package io.fournines.engine.aggregate;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How to fold items into a mutable accumulator, merge two accumulators (two-stage aggregation), take
 * one out of another (sliding windows without recombining every frame) and read the result.
 *
 * @param <T> item type
 * @param <A> accumulator type; must implement {@code equals} if the operation can deduct, so an
 *            accumulator back at its empty value can be dropped
 * @param <R> result type
 */
public record AggregateOperation<T, A, R>(
        Supplier<A> createFn,
        BiConsumer<? super A, ? super T> accumulateFn,
        BiConsumer<? super A, ? super A> combineFn,
        BiConsumer<? super A, ? super A> deductFn,
        Function<? super A, ? extends R> finishFn) {

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
        return new AggregateOperation<>(createFn, accumulateFn, combineFn, null, finishFn);
    }

    public boolean canDeduct() {
        return deductFn != null;
    }

    /** The same aggregation applied to what {@code mapFn} makes of each item. */
    public <S> AggregateOperation<S, A, R> withInput(Function<? super S, ? extends T> mapFn) {
        BiConsumer<? super A, ? super T> accumulate = accumulateFn;
        return new AggregateOperation<S, A, R>(createFn, (acc, item) -> accumulate.accept(acc, mapFn.apply(item)),
                combineFn, deductFn, finishFn);
    }

    /** The same aggregation with its result passed through {@code thenFn}. */
    public <R2> AggregateOperation<T, A, R2> andThen(Function<? super R, ? extends R2> thenFn) {
        Function<? super A, ? extends R> finish = finishFn;
        return new AggregateOperation<T, A, R2>(createFn, accumulateFn, combineFn, deductFn, acc -> thenFn.apply(finish.apply(acc)));
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
