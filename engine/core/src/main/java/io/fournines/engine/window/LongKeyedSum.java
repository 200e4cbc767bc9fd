package io.fournines.engine.window;

/**
 * A frame's partial sum of longs under a long key, as one object: what the first stage of a window
 * of sums under long keys sends the key's owner, instead of a {@link KeyedFrame} with a boxed key and
 * an accumulator (three objects per key and frame).
 */
public record LongKeyedSum(long frameEnd, long key, long sum) implements java.io.Serializable {
}
