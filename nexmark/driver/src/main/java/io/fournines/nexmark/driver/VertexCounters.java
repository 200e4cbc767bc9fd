package io.fournines.nexmark.driver;

/**
 * One vertex's counters on one member, summed over its instances, each cumulative from the job's
 * start (scenarios/docs/member-contract.md, {@code vertices.csv}). The sampled ones come from the
 * engine's sampling of its workers, each sample weighted by the microseconds it stands for: a share
 * is a difference of two of them over an interval.
 *
 * @param sampledMicros       time the samples of the vertex's instances stand for
 * @param busyMicros          of it, the samples that found the instance's worker in its call
 * @param backpressuredMicros of it, the samples that found its output refused by a full queue
 * @param queuedItemMicros    items waiting in its input queues at each sample, times the sample's weight
 * @param queueRoomMicros     its input queues' capacity, times each sample's weight
 */
public record VertexCounters(long itemsIn, long itemsOut, long sampledMicros, long busyMicros, long backpressuredMicros,
                             long queuedItemMicros, long queueRoomMicros) {
}
