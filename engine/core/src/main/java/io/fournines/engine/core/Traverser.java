package io.fournines.engine.core;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A lazy sequence that hands out items one at a time and returns null when exhausted. A processor
 * that emits many items per input keeps a traverser and resumes it when the outbox frees up.
 */
@FunctionalInterface
public interface Traverser<T> {

    /** The next item, or null when there is none (for now, or for good). */
    T next();

    default <R> Traverser<R> map(Function<? super T, ? extends R> mapFn) {
        return () -> {
            for (T t; (t = next()) != null; ) {
                R r = mapFn.apply(t);
                if (r != null) {
                    return r;
                }
            }
            return null;
        };
    }

    default Traverser<T> filter(Predicate<? super T> predicate) {
        return () -> {
            for (T t; (t = next()) != null; ) {
                if (predicate.test(t)) {
                    return t;
                }
            }
            return null;
        };
    }

    default <R> Traverser<R> flatMap(Function<? super T, ? extends Traverser<? extends R>> flatMapFn) {
        return new Traverser<>() {
            private Traverser<? extends R> current = Traversers.empty();

            @Override
            public R next() {
                for (R r; ; ) {
                    if ((r = current.next()) != null) {
                        return r;
                    }
                    T t = Traverser.this.next();
                    if (t == null) {
                        return null;
                    }
                    current = flatMapFn.apply(t);
                }
            }
        };
    }
}
