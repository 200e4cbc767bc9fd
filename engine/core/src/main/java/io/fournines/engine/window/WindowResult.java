package io.fournines.engine.window;

import java.io.Serializable;

/** The result of a window [start, end) over all items, unkeyed. Serializable: a later window may keep it as state. */
public record WindowResult<R>(long start, long end, R result) implements Serializable {
}
