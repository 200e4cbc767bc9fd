package io.fournines.member;

import io.fournines.engine.network.JobNetwork;

/**
 * What a member needs to run its part of a cluster job: the job's network, the wall-clock
 * instant all members' generators start from, and, in an active-active run, which copy this
 * cluster runs (null otherwise).
 */
record ClusterPart(JobNetwork network, long startEpochNanos, ActiveActiveCopy copy) {
}
