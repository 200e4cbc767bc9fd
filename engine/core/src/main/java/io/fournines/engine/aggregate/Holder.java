package io.fournines.engine.aggregate;

/** A mutable reference: the accumulator of minBy and maxBy. */
public final class Holder<T> {

    private T value;

    public T get() {
        return value;
    }

    public void set(T value) {
        this.value = value;
    }
}
