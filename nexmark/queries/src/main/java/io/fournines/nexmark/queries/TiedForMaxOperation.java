package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.nexmark.query.TiedForMax;

import java.util.List;
import java.util.function.ToLongFunction;

/** {@link TiedForMax} as the engine's aggregate operation (Q5's hot items, Q7's highest bids). */
final class TiedForMaxOperation {

    private TiedForMaxOperation() {
    }

    static <T> AggregateOperation<T, TiedForMax<T>, List<T>> of(ToLongFunction<? super T> valueFn) {
        return AggregateOperation.of(TiedForMax::new,
                (TiedForMax<T> acc, T item) -> acc.offer(valueFn.applyAsLong(item), item),
                TiedForMax::combine,
                TiedForMax::items);
    }
}
