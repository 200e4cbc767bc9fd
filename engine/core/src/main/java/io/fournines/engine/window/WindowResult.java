package io.fournines.engine.window;

/** The result of a window [start, end) over all items, unkeyed. */
public record WindowResult<R>(long start, long end, R result) {
}
