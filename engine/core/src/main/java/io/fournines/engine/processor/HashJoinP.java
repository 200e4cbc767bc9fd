package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.core.Traversers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Joins a stream (input 0) with a bounded build side (input 1) held in a hash table. The build edge
 * has the higher priority, so the table is complete before the first stream item is read. Every
 * build item with the stream item's key is joined with it; with none, an outer join passes null and
 * an inner join drops the item.
 */
public final class HashJoinP extends AbstractProcessor {

    private final Function<Object, ?> streamKeyFn;
    private final Function<Object, ?> buildKeyFn;
    private final BiFunction<Object, Object, ?> mapFn;
    private final boolean inner;
    private final Map<Object, List<Object>> table = new HashMap<>();
    private Traverser<?> pending;

    @SuppressWarnings("unchecked")
    public HashJoinP(Function<?, ?> streamKeyFn, Function<?, ?> buildKeyFn, BiFunction<?, ?, ?> mapFn, boolean inner) {
        this.streamKeyFn = (Function<Object, ?>) streamKeyFn;
        this.buildKeyFn = (Function<Object, ?>) buildKeyFn;
        this.mapFn = (BiFunction<Object, Object, ?>) mapFn;
        this.inner = inner;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (ordinal == 1) {
            table.computeIfAbsent(buildKeyFn.apply(item), k -> new ArrayList<>(1)).add(item);
            return true;
        }
        if (pending == null) {
            List<Object> matches = table.get(streamKeyFn.apply(item));
            if (matches == null) {
                pending = inner ? Traversers.empty() : Traversers.singleton(mapFn.apply(item, null));
            } else {
                pending = Traversers.traverseIterable(matches).map(match -> mapFn.apply(item, match));
            }
        }
        if (!emitFromTraverser(pending)) {
            return false;
        }
        pending = null;
        return true;
    }
}
