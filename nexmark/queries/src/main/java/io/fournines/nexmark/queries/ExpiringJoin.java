package io.fournines.nexmark.queries;

import io.fournines.engine.processor.ExpiringState;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

/**
 * One key's state of a join of two kinds of event ({@code L} and {@code R}): each event pairs with
 * every held event of the other kind it {@link #matches}, as soon as it arrives, and is held until
 * the watermark reaches its expiry. Subclasses say when each kind expires and what matches.
 */
abstract class ExpiringJoin<L, R> implements ExpiringState, Serializable {

    private final List<L> lefts = new ArrayList<>();
    private final List<R> rights = new ArrayList<>();
    private long nextExpiry = Long.MAX_VALUE;

    abstract long expiryOfLeft(L left);

    abstract long expiryOfRight(R right);

    abstract boolean matches(L left, R right);

    /** Holds {@code left}; returns its pairs with the held rights, made into results, or null for none. */
    final <O> List<O> addLeft(L left, BiFunction<? super L, ? super R, ? extends O> pairFn) {
        lefts.add(left);
        nextExpiry = Math.min(nextExpiry, expiryOfLeft(left));
        List<O> out = new ArrayList<>();
        rights.stream().filter(right -> matches(left, right)).forEach(right -> out.add(pairFn.apply(left, right)));
        return out.isEmpty() ? null : out;
    }

    /** Holds {@code right}; returns its pairs with the held lefts, made into results, or null for none. */
    final <O> List<O> addRight(R right, BiFunction<? super L, ? super R, ? extends O> pairFn) {
        rights.add(right);
        nextExpiry = Math.min(nextExpiry, expiryOfRight(right));
        List<O> out = new ArrayList<>();
        lefts.stream().filter(left -> matches(left, right)).forEach(left -> out.add(pairFn.apply(left, right)));
        return out.isEmpty() ? null : out;
    }

    @Override
    public final long nextExpiry() {
        return nextExpiry;
    }

    @Override
    public final boolean expire(long watermark) {
        lefts.removeIf(left -> expiryOfLeft(left) <= watermark);
        rights.removeIf(right -> expiryOfRight(right) <= watermark);
        nextExpiry = Math.min(earliest(lefts, this::expiryOfLeft), earliest(rights, this::expiryOfRight));
        return !lefts.isEmpty() || !rights.isEmpty();
    }

    private static <T> long earliest(List<T> held, ToLongFunction<T> expiry) {
        return held.stream().mapToLong(expiry).min().orElse(Long.MAX_VALUE);
    }
}
