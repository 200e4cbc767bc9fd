package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Maps each item with access to a mutable state object for its key; the partitioned edge in front
 * guarantees one instance sees all items of a key. A null result emits nothing.
 */
public final class MapStatefulP extends AbstractProcessor {

    /** Computes the output for {@code item} from and into {@code state}. */
    @FunctionalInterface
    public interface StatefulMapFn<S, K, T, R> {
        R apply(S state, K key, T item);
    }

    private final Function<Object, ?> keyFn;
    private final Supplier<?> createStateFn;
    private final StatefulMapFn<Object, Object, Object, ?> mapFn;
    private final Map<Object, Object> states = new HashMap<>();
    private Object pendingOutput;

    @SuppressWarnings("unchecked")
    public MapStatefulP(Function<?, ?> keyFn, Supplier<?> createStateFn, StatefulMapFn<?, ?, ?, ?> mapFn) {
        this.keyFn = (Function<Object, ?>) keyFn;
        this.createStateFn = createStateFn;
        this.mapFn = (StatefulMapFn<Object, Object, Object, ?>) mapFn;
    }

    /** Each key's state under its key (state objects must be Serializable). */
    @Override
    public boolean saveToSnapshot() {
        return emitToSnapshot(() -> new ArrayList<>(states.entrySet()));
    }

    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        states.put(key, value);
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (pendingOutput == null) {
            Object key = keyFn.apply(item);
            Object state = states.computeIfAbsent(key, k -> createStateFn.get());
            pendingOutput = mapFn.apply(state, key, item);
            if (pendingOutput == null) {
                return true;
            }
        }
        if (!tryEmit(pendingOutput)) {
            return false;
        }
        pendingOutput = null;
        return true;
    }
}
