package io.fournines.engine.aggregate;

import java.util.function.Function;

/**
 * A grouping key that is a long. Windowed sums keep such keys unboxed while they accumulate, so an
 * item costs no {@code Long}; a key is boxed once per frame, when its partial goes out.
 * Everything else sees an ordinary key function returning {@code Long}.
 */
@FunctionalInterface
public interface LongKeyFn<T> extends Function<T, Long> {

    long applyAsLong(T item);

    @Override
    default Long apply(T item) {
        return applyAsLong(item);
    }
}
