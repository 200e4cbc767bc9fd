package io.fournines.engine.processor;

import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Processor;

import java.io.Serializable;

/**
 * Names the per-instance part of a processor's state (a source's position, a window's progress) in a
 * snapshot. Saved under a {@link BroadcastKey}, so every instance sees all of them on restore and
 * takes its own: instance {@code index} of {@code parallelism}.
 */
record InstanceStateKey(String what, int index, int parallelism) implements Serializable {

    static BroadcastKey of(String what, Processor.Context context) {
        return new BroadcastKey(new InstanceStateKey(what, context.processorIndex(), context.parallelism()));
    }

    /** Whether {@code key} names this instance's {@code what}. */
    static boolean isOwn(Object key, String what, Processor.Context context) {
        return key instanceof BroadcastKey b && b.id() instanceof InstanceStateKey k && k.what.equals(what)
                && k.index == context.processorIndex() && k.parallelism == context.parallelism();
    }
}
