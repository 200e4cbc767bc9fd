package io.fournines.engine.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A metric one processor instance counts and anyone may read: written by the instance's own thread
 * only, so an increment is a plain add published with release semantics, no atomic read-modify-write.
 */
public final class Counter {

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Counter.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through VALUE
    private long value;

    /** Only from the owning processor's thread. */
    public void add(long delta) {
        VALUE.setRelease(this, (long) VALUE.get(this) + delta);
    }

    public void increment() {
        add(1);
    }

    /** From any thread. */
    public long get() {
        return (long) VALUE.getAcquire(this);
    }
}
