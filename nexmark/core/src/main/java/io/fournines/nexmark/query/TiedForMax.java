package io.fournines.nexmark.query;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Accumulator of "every item tied for the highest value" (Q5's hot items, Q7's highest bids): the
 * highest value so far and the items that have it. Ties are the point of these queries, so a
 * single-winner max would be wrong. Every engine's plan keeps this accumulator in its own window
 * operator. Serializable: it is window state, saved in snapshots.
 */
public final class TiedForMax<T> implements Serializable {

    private long max;
    private final List<T> items = new ArrayList<>();

    public void offer(long value, T item) {
        if (items.isEmpty() || value > max) {
            items.clear();
            max = value;
        } else if (value < max) {
            return;
        }
        items.add(item);
    }

    /** Whether {@link #offer} would keep an item of this value: a caller can then make the item only when it would. */
    public boolean keeps(long value) {
        return items.isEmpty() || value >= max;
    }

    /** The highest value offered; meaningless while there are no items. */
    public long max() {
        return max;
    }

    public void combine(TiedForMax<T> other) {
        if (other.items.isEmpty()) {
            return;
        }
        if (items.isEmpty() || other.max > max) {
            items.clear();
            max = other.max;
        } else if (other.max < max) {
            return;
        }
        items.addAll(other.items);
    }

    /** The items tied for the highest value, in the order they were offered. */
    public List<T> items() {
        return List.copyOf(items);
    }
}
