package io.fournines.engine.aggregate;

import java.io.Serializable;

/** A mutable reference: the accumulator of minBy and maxBy. */
public final class Holder<T> implements Serializable {

    private T value;

    public T get() {
        return value;
    }

    public void set(T value) {
        this.value = value;
    }
}
