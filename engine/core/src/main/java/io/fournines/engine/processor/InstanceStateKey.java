package io.fournines.engine.processor;

import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Processor;

import java.io.Serializable;

/**
 * Names the per-instance part of a processor's state (a source's position, a window's progress) in a
 * snapshot. Saved under a {@link BroadcastKey}, so every instance sees all of them on restore and
 * takes its own: instance {@code index} of {@code parallelism}, counted over all members, so the
 * instances of a cluster job name theirs apart.
 */
record InstanceStateKey(String what, int index, int parallelism) implements Serializable {

    static BroadcastKey of(String what, Processor.Context context) {
        return new BroadcastKey(new InstanceStateKey(what, globalIndex(context), totalInstances(context)));
    }

    /** Whether {@code key} names some instance's {@code what}. */
    static boolean names(Object key, String what) {
        return named(key, what) != null;
    }

    /** Whether {@code key} names this instance's {@code what}. */
    static boolean isOwn(Object key, String what, Processor.Context context) {
        InstanceStateKey k = named(key, what);
        return k != null && k.index == globalIndex(context) && k.parallelism == totalInstances(context);
    }

    /** Whether {@code key} names some instance's {@code what} saved with another number of instances than this job has. */
    static boolean isRescaled(Object key, String what, Processor.Context context) {
        InstanceStateKey k = named(key, what);
        return k != null && k.parallelism != totalInstances(context);
    }

    /** The instance state {@code key} names if it is some instance's {@code what}; else null. */
    private static InstanceStateKey named(Object key, String what) {
        return key instanceof BroadcastKey b && b.id() instanceof InstanceStateKey k && k.what.equals(what) ? k : null;
    }

    private static int globalIndex(Processor.Context context) {
        return context.memberIndex() * context.parallelism() + context.processorIndex();
    }

    private static int totalInstances(Processor.Context context) {
        return context.memberCount() * context.parallelism();
    }
}
