package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;

import java.util.List;

/** A batch source over a list: instance i of n emits the items at positions i, i+n, i+2n, ... */
public final class ItemsSourceP extends AbstractProcessor {

    private final List<?> items;
    private int next;
    private int step;

    public ItemsSourceP(List<?> items) {
        this.items = items;
    }

    @Override
    protected void init(Context context) {
        // Each item once in the whole cluster: the instances of all members share one sequence.
        next = context.memberIndex() * context.parallelism() + context.processorIndex();
        step = context.parallelism() * context.memberCount();
    }

    @Override
    public boolean complete() {
        for (; next < items.size(); next += step) {
            if (!tryEmit(items.get(next))) {
                return false;
            }
        }
        return true;
    }
}
