package io.fournines.engine.cluster;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.execution.ExecutionModel;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a member runs for a job: the application plugs in here, so the cluster never reads a job's
 * description (a benchmark scenario, say) and knows nothing of what it computes. {@link JobControl}
 * calls it on every member: to check a job before accepting it, and to run this member's part.
 */
public interface JobRunner {

    /**
     * Checks {@code description} completely, before any member accepts the job; returns what the
     * cluster needs to run it. Called on every member that sees the job, so it must be a function
     * of the description alone.
     */
    JobSettings settings(String description) throws InvalidJobException;

    /** This member's part of the job, not started yet: {@link JobControl} runs it on a thread of its own. */
    JobPart part(String description, PartContext context) throws InvalidJobException;

    /**
     * @param members          the members the job needs: all of the cluster's
     * @param guarantee        anything but NONE takes snapshots every {@code snapshotInterval}
     * @param startEpochNanos  when every member starts it; 0: the coordinator picks an instant just ahead
     * @param execution        continuous, or micro-batch or group scheduling ({@link ExecutionModel})
     */
    record JobSettings(int members, ProcessingGuarantee guarantee, Duration snapshotInterval, long startEpochNanos, ExecutionModel execution) {
    }

    /**
     * @param job             the job over its executions on this member (restarts, snapshots)
     * @param startEpochNanos the instant every member's part starts from
     * @param joined          this member joined the job while it ran (a lost member back): its clock follows the job's start
     * @param dir             where this member's part writes its files
     */
    record PartContext(ClusterJob job, int member, int members, long startEpochNanos, boolean joined, Path dir) {
    }
}
