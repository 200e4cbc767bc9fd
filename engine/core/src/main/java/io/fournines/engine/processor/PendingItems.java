package io.fournines.engine.processor;

import java.util.ArrayList;
import java.util.function.Predicate;

/**
 * Items computed in one go (a flushed frame, a window's results) and emitted over as many calls as
 * the outbox needs, resuming at the first refused item. The list is reused, so this allocates
 * nothing once it has grown to its working size.
 */
final class PendingItems extends ArrayList<Object> {

    private int next;

    /** Offers the items in order; true once all went out (the list is then empty again). */
    boolean emit(Predicate<Object> tryEmit) {
        for (; next < size(); next++) {
            if (!tryEmit.test(get(next))) {
                return false;
            }
        }
        clear();
        next = 0;
        return true;
    }
}
