package io.fournines.engine.dag;

import java.util.Objects;
import java.util.function.Function;

/**
 * A connection from an output ordinal of one vertex to an input ordinal of another, with the rule
 * that routes items between their instances.
 */
public final class Edge {

    /** Jet's default: enough to absorb bursts, small enough to keep the working set in cache. */
    public static final int DEFAULT_QUEUE_SIZE = 1024;

    private final Vertex source;
    private final int sourceOrdinal;
    private final Vertex destination;
    private final int destOrdinal;
    private RoutingPolicy routingPolicy = RoutingPolicy.UNICAST;
    private Function<Object, ?> partitionKeyFn;
    private int priority;
    private int queueSize = DEFAULT_QUEUE_SIZE;
    private boolean distributed;

    private Edge(Vertex source, int sourceOrdinal, Vertex destination, int destOrdinal) {
        this.source = Objects.requireNonNull(source, "source");
        this.destination = Objects.requireNonNull(destination, "destination");
        if (sourceOrdinal < 0 || destOrdinal < 0) {
            throw new IllegalArgumentException("edge " + source + " -> " + destination + ": ordinals must be >= 0");
        }
        this.sourceOrdinal = sourceOrdinal;
        this.destOrdinal = destOrdinal;
    }

    public static Edge between(Vertex source, Vertex destination) {
        return new Edge(source, 0, destination, 0);
    }

    public static Edge from(Vertex source, int sourceOrdinal, Vertex destination, int destOrdinal) {
        return new Edge(source, sourceOrdinal, destination, destOrdinal);
    }

    /** Routes by key: the key's partition decides the consumer. */
    @SuppressWarnings("unchecked")
    public <T> Edge partitioned(Function<? super T, ?> keyFn) {
        this.routingPolicy = RoutingPolicy.PARTITIONED;
        this.partitionKeyFn = (Function<Object, ?>) Objects.requireNonNull(keyFn, "keyFn");
        return this;
    }

    public Edge broadcast() {
        this.routingPolicy = RoutingPolicy.BROADCAST;
        return this;
    }

    public Edge isolated() {
        this.routingPolicy = RoutingPolicy.ISOLATED;
        return this;
    }

    public Edge allToOne() {
        this.routingPolicy = RoutingPolicy.ALL_TO_ONE;
        return this;
    }

    /**
     * Inputs with a lower priority number are drained to completion before any input with a higher
     * one is read (a hash join's build side first). Default 0.
     */
    public Edge priority(int priority) {
        this.priority = priority;
        return this;
    }

    public Edge queueSize(int queueSize) {
        if (queueSize < 2) {
            throw new IllegalArgumentException("edge " + this + ": queueSize must be >= 2, got " + queueSize);
        }
        this.queueSize = queueSize;
        return this;
    }

    /** Lets items cross members; a local edge (the default) keeps them on the member they were made on. */
    public Edge distributed() {
        this.distributed = true;
        return this;
    }

    public Vertex source() {
        return source;
    }

    public int sourceOrdinal() {
        return sourceOrdinal;
    }

    public Vertex destination() {
        return destination;
    }

    public int destOrdinal() {
        return destOrdinal;
    }

    public RoutingPolicy routingPolicy() {
        return routingPolicy;
    }

    public Function<Object, ?> partitionKeyFn() {
        return partitionKeyFn;
    }

    public int priority() {
        return priority;
    }

    public int queueSize() {
        return queueSize;
    }

    public boolean isDistributed() {
        return distributed;
    }

    @Override
    public String toString() {
        return source.name() + "[" + sourceOrdinal + "] -> " + destination.name() + "[" + destOrdinal + "]";
    }
}
