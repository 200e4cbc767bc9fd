package io.fournines.member;

import io.fournines.cluster.ClusterSnapshots;
import io.fournines.engine.network.JobNetwork;

/**
 * What a member needs to run its part of a cluster job: the job's network, the wall-clock instant
 * all members' generators start from, in an active-active run which copy this cluster runs (null
 * otherwise), and the cluster's snapshots of it (null without a guarantee).
 */
record ClusterPart(JobNetwork network, long startEpochNanos, ActiveActiveCopy copy, ClusterSnapshots snapshots) {
}
