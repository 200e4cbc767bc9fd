package io.fournines.engine.execution;

import java.util.concurrent.TimeUnit;

/**
 * How the engine runs tasklets.
 *
 * @param cooperativeThreads worker threads shared by cooperative tasklets (default: one per core)
 * @param idling             what a cooperative worker does after a round without progress (default {@link Idling#PARK_BACKOFF})
 * @param idleMinParkNanos   first park after a round without progress ({@link Idling#PARK_BACKOFF}, and dedicated threads)
 * @param idleMaxParkNanos   longest park; bounds how late a time-driven processor without a deadline runs
 * @param outboxBatchLimit   items a processor may emit per call before it must yield
 * @param partitionCount     partitions of the key space on partitioned edges
 */
public record ExecutionConfig(int cooperativeThreads, Idling idling, long idleMinParkNanos, long idleMaxParkNanos,
                              int outboxBatchLimit, int partitionCount) {

    /**
     * Parks can be long (so idling is cheap) because every wake-up that matters is signalled:
     * producers wake a parked worker when they hand it data, consumers when they free queue space,
     * and sources set a deadline for their next scheduled items. The park length therefore does not
     * bound the latency of data-driven work; it only paces polling for anything unsignalled. Jet
     * parks 25 us doubling to 500 us, which costs it 18 % of a core at 1 000 events/s.
     */
    public static final long DEFAULT_IDLE_MIN_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    public static final long DEFAULT_IDLE_MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    public ExecutionConfig {
        if (cooperativeThreads < 1) {
            throw new IllegalArgumentException("cooperativeThreads must be >= 1, got " + cooperativeThreads);
        }
        if (idling == null) {
            throw new IllegalArgumentException("idling must be given");
        }
        if (idleMinParkNanos <= 0 || idleMaxParkNanos < idleMinParkNanos) {
            throw new IllegalArgumentException("idle park must satisfy 0 < min <= max, got min=" + idleMinParkNanos + "ns max=" + idleMaxParkNanos + "ns");
        }
        if (outboxBatchLimit < 1) {
            throw new IllegalArgumentException("outboxBatchLimit must be >= 1, got " + outboxBatchLimit);
        }
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be >= 1, got " + partitionCount);
        }
    }

    public static ExecutionConfig defaults() {
        return new ExecutionConfig(Runtime.getRuntime().availableProcessors(), Idling.PARK_BACKOFF, DEFAULT_IDLE_MIN_PARK_NANOS,
                DEFAULT_IDLE_MAX_PARK_NANOS, OutboxImpl.DEFAULT_BATCH_LIMIT, Partitioner.DEFAULT_PARTITION_COUNT);
    }

    public ExecutionConfig withCooperativeThreads(int threads) {
        return new ExecutionConfig(threads, idling, idleMinParkNanos, idleMaxParkNanos, outboxBatchLimit, partitionCount);
    }

    public ExecutionConfig withIdling(Idling idling) {
        return new ExecutionConfig(cooperativeThreads, idling, idleMinParkNanos, idleMaxParkNanos, outboxBatchLimit, partitionCount);
    }

    public ExecutionConfig withIdlePark(long minNanos, long maxNanos) {
        return new ExecutionConfig(cooperativeThreads, idling, minNanos, maxNanos, outboxBatchLimit, partitionCount);
    }
}
