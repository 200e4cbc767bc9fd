package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;

import io.fournines.engine.core.Watermark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Maps each item with access to a mutable state object for its key; the partitioned edge in front
 * guarantees one instance sees all items of a key. A null result emits nothing. Built with {@code
 * expiring}, the states are {@link ExpiringState}s, expired as the watermark passes their next
 * expiry and dropped once empty; otherwise a key's state lives as long as the job.
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
    private final ExpirySchedule expiries;
    private final List<Object> dueKeys = new ArrayList<>();
    private Object pendingOutput;

    @SuppressWarnings("unchecked")
    public MapStatefulP(Function<?, ?> keyFn, Supplier<?> createStateFn, StatefulMapFn<?, ?, ?, ?> mapFn, boolean expiring) {
        this.keyFn = (Function<Object, ?>) keyFn;
        this.createStateFn = createStateFn;
        this.mapFn = (StatefulMapFn<Object, Object, Object, ?>) mapFn;
        this.expiries = expiring ? new ExpirySchedule() : null;
    }

    /** Each key's state under its key (state objects must be Serializable). */
    @Override
    public boolean saveToSnapshot() {
        return emitToSnapshot(() -> new ArrayList<>(states.entrySet()));
    }

    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        states.put(key, value);
        if (expiries != null) {
            expiries.update(key, ((ExpiringState) value).nextExpiry());
        }
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (pendingOutput == null) {
            Object key = keyFn.apply(item);
            Object state = states.computeIfAbsent(key, k -> createStateFn.get());
            pendingOutput = mapFn.apply(state, key, item);
            if (expiries != null) {
                expiries.update(key, ((ExpiringState) state).nextExpiry());
            }
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

    /** Expires the states due by the watermark before passing it on; the idle marker says no time passed. */
    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        long time = watermark.timestamp();
        if (expiries != null && time != Watermark.IDLE.timestamp()) {
            expiries.takeDue(time, dueKeys::add);
            for (Object key : dueKeys) {
                ExpiringState state = (ExpiringState) states.get(key);
                if (state.expire(time)) {
                    expiries.update(key, state.nextExpiry());
                } else {
                    states.remove(key);
                }
            }
            dueKeys.clear();
        }
        return super.tryProcessWatermark(watermark);
    }
}
