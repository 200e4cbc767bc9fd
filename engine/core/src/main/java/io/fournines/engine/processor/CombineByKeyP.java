package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traverser;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.window.KeyedFrame;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Second stage of a batch group-and-aggregate: merges the partial accumulators of the keys this
 * instance owns and, at the end of the input, emits one item per key, made by the output function.
 */
public final class CombineByKeyP extends AbstractProcessor {

    private final AggregateOperation<?, ?, ?> operation;
    private final BiFunction<Object, Object, ?> outputFn;
    private final Map<Object, Object> accumulators = new HashMap<>();
    private Traverser<Object> output;

    /** @param outputFn makes the emitted item from a key and its result */
    @SuppressWarnings("unchecked")
    public CombineByKeyP(AggregateOperation<?, ?, ?> operation, BiFunction<?, ?, ?> outputFn) {
        this.operation = operation;
        this.outputFn = (BiFunction<Object, Object, ?>) outputFn;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        KeyedFrame partial = (KeyedFrame) item;
        Object acc = accumulators.putIfAbsent(partial.key(), partial.accumulator());
        if (acc != null) {
            operation.combine(acc, partial.accumulator());
        }
        return true;
    }

    @Override
    public boolean complete() {
        if (output == null) {
            output = Traversers.traverseIterable(accumulators.entrySet()).map(e -> outputFn.apply(e.getKey(), operation.finish(e.getValue())));
        }
        return emitFromTraverser(output);
    }
}
