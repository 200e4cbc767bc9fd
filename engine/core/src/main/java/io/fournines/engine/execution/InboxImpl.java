package io.fournines.engine.execution;

import io.fournines.engine.core.Inbox;

import java.util.ArrayDeque;

/**
 * The inbox: a reused deque, so filling it allocates nothing once it has grown to its working size.
 * Public so tests, and a processor made of two ({@code FusedAccumulateP}), can hand items to a processor directly.
 */
public final class InboxImpl implements Inbox {

    private final ArrayDeque<Object> items = new ArrayDeque<>(io.fournines.engine.dag.Edge.DEFAULT_QUEUE_SIZE);

    public void add(Object item) {
        items.addLast(item);
    }

    @Override
    public boolean isEmpty() {
        return items.isEmpty();
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public Object peek() {
        return items.peekFirst();
    }

    @Override
    public Object poll() {
        return items.pollFirst();
    }

    @Override
    public void remove() {
        items.removeFirst();
    }
}
