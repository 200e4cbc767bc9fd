package io.fournines.engine.window;

/** The result for one key in the window [start, end). */
public record KeyedWindowResult<K, R>(long start, long end, K key, R result) {
}
