package io.fournines.engine.core;

/**
 * The one key of a global (non-keyed) aggregate. It belongs to partition 0, which instance 0 owns at
 * any number of instances: the instance an all-to-one edge delivers to, so the aggregate's state is
 * restored where its input arrives (any other key's partition may be owned by another instance).
 */
public enum GlobalKey {
    INSTANCE
}
