package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.window.KeyedFrame;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * First stage of a batch group-and-aggregate: folds this instance's items into one accumulator per
 * key and, at the end of the input, sends each as a {@link KeyedFrame} to the key's owner.
 */
public final class AccumulateByKeyP extends AbstractProcessor {

    private final Function<Object, ?> keyFn;
    private final AggregateOperation<?, ?, ?> operation;
    private final Map<Object, Object> accumulators = new HashMap<>();
    private Traverser<KeyedFrame> output;

    @SuppressWarnings("unchecked")
    public AccumulateByKeyP(Function<?, ?> keyFn, AggregateOperation<?, ?, ?> operation) {
        this.keyFn = (Function<Object, ?>) keyFn;
        this.operation = operation;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        Object key = keyFn.apply(item);
        Object acc = accumulators.get(key);
        if (acc == null) {
            acc = operation.createFn().get();
            accumulators.put(key, acc);
        }
        operation.accumulate(acc, item);
        return true;
    }

    @Override
    public boolean complete() {
        if (output == null) {
            output = Traversers.traverseIterable(accumulators.entrySet()).map(e -> new KeyedFrame(0, e.getKey(), e.getValue()));
        }
        return emitFromTraverser(output);
    }
}
