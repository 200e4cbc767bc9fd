package io.fournines.engine.aggregate;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An aggregation over all keys of one window, fed each key's window sum as two primitive longs (key,
 * sum): a window of 10 000 keys then costs one accumulator, not an object per key (Q5's auctions
 * tied for the most bids). Each instance folds the keys it owns; the partial accumulators of one
 * window are then combined on one instance and finished.
 *
 * @param <A> accumulator type; serializable, it is saved in snapshots
 * @param <R> result type
 */
public record OverKeysOperation<A, R>(
        Supplier<A> createFn,
        KeySumConsumer<? super A> accumulateFn,
        BiConsumer<? super A, ? super A> combineFn,
        Function<? super A, ? extends R> finishFn) {

    /** Folds one key's sum in the window into the accumulator. */
    @FunctionalInterface
    public interface KeySumConsumer<A> {
        void accept(A accumulator, long key, long sum);
    }

    public OverKeysOperation {
        Objects.requireNonNull(createFn, "createFn");
        Objects.requireNonNull(accumulateFn, "accumulateFn");
        Objects.requireNonNull(combineFn, "combineFn");
        Objects.requireNonNull(finishFn, "finishFn");
    }

    @SuppressWarnings("unchecked")
    public void accumulate(Object acc, long key, long sum) {
        ((KeySumConsumer<Object>) accumulateFn).accept(acc, key, sum);
    }

    /** The second stage's operation: it only combines partial accumulators and finishes them. */
    public AggregateOperation<Object, A, R> combining() {
        return AggregateOperation.of(createFn, (acc, item) -> {
            throw new IllegalStateException("an aggregate over keys combines partials; it takes no items");
        }, combineFn, finishFn);
    }
}
