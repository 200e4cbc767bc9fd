package io.fournines.engine.execution;

import io.fournines.engine.core.Counter;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A job's counters, by {@code vertex.name}: each processor instance owns its own {@link Counter}s
 * (no contention on the hot path); a snapshot sums the instances of each name.
 */
public final class JobMetrics {

    /** Every processor instance's count of the data items it took from its inbox. */
    public static final String ITEMS_IN = "itemsIn";
    /** Every processor instance's count of the data items its outbox accepted. */
    public static final String ITEMS_OUT = "itemsOut";

    private final Map<String, List<Counter>> counters = new ConcurrentHashMap<>();

    Counter register(String vertexName, String name) {
        Counter counter = new Counter();
        counters.computeIfAbsent(vertexName + "." + name, k -> new CopyOnWriteArrayList<>()).add(counter);
        return counter;
    }

    /** Current values, summed over instances, sorted by name. */
    public Map<String, Long> snapshot() {
        Map<String, Long> values = new TreeMap<>();
        counters.forEach((name, list) -> values.put(name, list.stream().mapToLong(Counter::get).sum()));
        return values;
    }
}
