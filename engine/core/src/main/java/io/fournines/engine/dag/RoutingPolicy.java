package io.fournines.engine.dag;

/** How an edge picks the consumer instance for each item. */
public enum RoutingPolicy {
    /** Any consumer: round-robin, skipping full queues. */
    UNICAST,
    /** By the item's key: equal keys always reach the same consumer. */
    PARTITIONED,
    /** Every consumer gets every item. */
    BROADCAST,
    /** Producer i feeds only consumer i; both vertices need the same parallelism. */
    ISOLATED,
    /** Every item goes to one consumer. */
    ALL_TO_ONE
}
