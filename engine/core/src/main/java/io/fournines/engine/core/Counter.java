package io.fournines.engine.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A metric one processor instance counts and anyone may read: written by the instance's own thread
 * only, so an increment is a plain add published with release semantics, no atomic read-modify-write.
 * Its value has a cache line to itself (the padding of the classes around it, which the JVM lays out
 * superclass first): two instances' counters, made one after the other, would otherwise share a line
 * that their two workers took from each other at every increment.
 */
public final class Counter extends CounterValue {

    @SuppressWarnings("unused") // padding after the value
    private long after1, after2, after3, after4, after5, after6, after7;

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(CounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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

/** Padding before a {@link Counter}'s value. */
abstract class CounterPadding {
    @SuppressWarnings("unused")
    private long before1, before2, before3, before4, before5, before6, before7;
}

/** The value of a {@link Counter}, between its paddings. */
abstract class CounterValue extends CounterPadding {
    @SuppressWarnings("unused") // accessed through Counter's VarHandle
    long value;
}
