package io.fournines.engine.core;

/** The items a processor is asked to handle in one {@link Processor#process} call. */
public interface Inbox {
    boolean isEmpty();

    int size();

    /** The next item, left in place; null when empty. */
    Object peek();

    /** Removes and returns the next item; null when empty. */
    Object poll();

    /** Removes the next item. */
    void remove();
}
