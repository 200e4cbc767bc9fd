package io.fournines.engine.window;

import java.io.Serializable;

/** The result for one key in the window [start, end). Serializable: a later window may keep it as state (Q5's hottest item). */
public record KeyedWindowResult<K, R>(long start, long end, K key, R result) implements Serializable {
}
