package io.fournines.engine.network;

/**
 * One member's end of a job's batch scheduling (micro-batch and group execution) over the network:
 * the scheduling member hears every member's readiness and stage reports, every other member hears
 * the launches. Called on the network's I/O thread, so it must not block.
 */
public interface BatchEndpoint {

    /** {@code fromMember}'s part of the job is planned. */
    void onReady(int fromMember);

    /**
     * {@code fromMember} finished {@code stage} of {@code batch} (Long.MAX_VALUE: every batch), first
     * started at {@code startedMicros} and finished at {@code finishedMicros} on its clock.
     */
    void onStageDone(int fromMember, int stage, long batch, long startedMicros, long finishedMicros);

    /** The scheduler launched batches up to {@code throughBatch} on {@code stage}; batch 0 ends at epoch batch index {@code firstEnd}. */
    void onLaunch(int stage, long throughBatch, long firstEnd);
}
