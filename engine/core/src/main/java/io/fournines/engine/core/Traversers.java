package io.fournines.engine.core;

import java.util.Iterator;

/** Factories for the common traversers. */
public final class Traversers {

    private static final Traverser<Object> EMPTY = () -> null;

    private Traversers() {
    }

    @SuppressWarnings("unchecked")
    public static <T> Traverser<T> empty() {
        return (Traverser<T>) EMPTY;
    }

    /** Yields the item once (nothing if it is null). */
    public static <T> Traverser<T> singleton(T item) {
        return new Traverser<>() {
            private T next = item;

            @Override
            public T next() {
                T t = next;
                next = null;
                return t;
            }
        };
    }

    @SafeVarargs
    public static <T> Traverser<T> traverseItems(T... items) {
        return traverseArray(items);
    }

    /** Yields the array's non-null elements. */
    public static <T> Traverser<T> traverseArray(T[] array) {
        return new Traverser<>() {
            private int i;

            @Override
            public T next() {
                while (i < array.length) {
                    T t = array[i++];
                    if (t != null) {
                        return t;
                    }
                }
                return null;
            }
        };
    }

    /** Yields the iterable's non-null elements. */
    public static <T> Traverser<T> traverseIterable(Iterable<? extends T> iterable) {
        Iterator<? extends T> it = iterable.iterator();
        return () -> {
            while (it.hasNext()) {
                T t = it.next();
                if (t != null) {
                    return t;
                }
            }
            return null;
        };
    }

    /** Yields all of {@code first}, then all of {@code second}. */
    public static <T> Traverser<T> concat(Traverser<? extends T> first, Traverser<? extends T> second) {
        return new Traverser<>() {
            private boolean firstDone;

            @Override
            public T next() {
                if (!firstDone) {
                    T item = first.next();
                    if (item != null) {
                        return item;
                    }
                    firstDone = true;
                }
                return second.next();
            }
        };
    }
}
