package io.fournines.engine.pipeline;

import java.util.function.Function;

/** Which key of a stream item must equal which key of a build-side item for the two to join. */
public record JoinClause<K, T, B>(Function<? super T, ? extends K> streamKeyFn, Function<? super B, ? extends K> buildKeyFn) {

    public static <K, T, B> JoinClause<K, T, B> onKeys(Function<? super T, ? extends K> streamKeyFn, Function<? super B, ? extends K> buildKeyFn) {
        return new JoinClause<>(streamKeyFn, buildKeyFn);
    }
}
