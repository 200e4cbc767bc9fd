package io.fournines.engine.window;

/**
 * A partial aggregate: one key's accumulator for one frame, sent from the local accumulating stage
 * to the stage that owns the key. Also used, with {@code frameEnd} ignored, for batch aggregation,
 * and as the snapshot form of a first stage's open frames.
 */
public record KeyedFrame(long frameEnd, Object key, Object accumulator) implements java.io.Serializable {
}
