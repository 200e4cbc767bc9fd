package io.fournines.nexmark.driver;

/**
 * One vertex's counters on one member, summed over its instances, each cumulative from the job's
 * start (scenarios/docs/member-contract.md, {@code vertices.csv}). The sample counts come from the
 * engine's sampling of its workers: a share is a difference of two of them over an interval.
 *
 * @param samples       samples taken of the vertex's instances
 * @param busy          of them, those that found the instance's worker in its call
 * @param backpressured of them, those that found its output refused by a full queue
 * @param queued        items waiting in its input queues, added up over the samples
 * @param queueRoom     its input queues' capacity, added up over the samples
 */
public record VertexCounters(long itemsIn, long itemsOut, long samples, long busy, long backpressured, long queued, long queueRoom) {
}
