package io.fournines.engine.aggregate;

import java.io.Serializable;

/** A mutable long: the accumulator of counting, summing, minimum and maximum. */
public final class LongAccumulator implements Serializable {

    private long value;

    public LongAccumulator() {
    }

    public LongAccumulator(long value) {
        this.value = value;
    }

    public long get() {
        return value;
    }

    public void set(long value) {
        this.value = value;
    }

    public void add(long delta) {
        value += delta;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LongAccumulator other && other.value == value;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
