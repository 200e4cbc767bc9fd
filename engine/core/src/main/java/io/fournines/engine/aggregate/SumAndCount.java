package io.fournines.engine.aggregate;

import java.io.Serializable;

/** The accumulator of averaging: a sum and how many values it holds. */
public final class SumAndCount implements Serializable {

    private double sum;
    private long count;

    void add(double value) {
        sum += value;
        count++;
    }

    void combine(SumAndCount other) {
        sum += other.sum;
        count += other.count;
    }

    void deduct(SumAndCount other) {
        sum -= other.sum;
        count -= other.count;
    }

    /** NaN when empty, as the mean of nothing is undefined. */
    public double mean() {
        return count == 0 ? Double.NaN : sum / count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SumAndCount other && other.count == count && other.sum == sum;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count) * 31 + Double.hashCode(sum);
    }
}
