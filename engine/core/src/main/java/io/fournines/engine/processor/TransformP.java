package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Traverser;

import java.util.function.Function;

/**
 * Runs a fused chain of stateless stages. A chain of maps and filters is one composed function
 * (null means "dropped") and allocates nothing per item; a chain with a flatMap yields a traverser
 * per item.
 */
public final class TransformP extends AbstractProcessor {

    private final Function<Object, Object> mapFn;
    private final Function<Object, ? extends Traverser<?>> flatMapFn;
    private Object pendingOutput;
    private Traverser<?> pendingTraverser;

    private TransformP(Function<Object, Object> mapFn, Function<Object, ? extends Traverser<?>> flatMapFn) {
        this.mapFn = mapFn;
        this.flatMapFn = flatMapFn;
    }

    /** Each item becomes at most one item: {@code mapFn} returns null to drop it. */
    public static TransformP mapping(Function<Object, Object> mapFn) {
        return new TransformP(mapFn, null);
    }

    /** Each item becomes the traverser's items. */
    public static TransformP flatMapping(Function<Object, ? extends Traverser<?>> flatMapFn) {
        return new TransformP(null, flatMapFn);
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        if (mapFn != null) {
            // Keep the output across a refused offer so the function runs once per item.
            if (pendingOutput == null && (pendingOutput = mapFn.apply(item)) == null) {
                return true;
            }
            if (!tryEmit(pendingOutput)) {
                return false;
            }
            pendingOutput = null;
            return true;
        }
        if (pendingTraverser == null) {
            pendingTraverser = flatMapFn.apply(item);
        }
        if (!emitFromTraverser(pendingTraverser)) {
            return false;
        }
        pendingTraverser = null;
        return true;
    }
}
