package io.fournines.member;

import io.fournines.cluster.ClusterJob;

/**
 * What a member needs to run its part of a cluster job: the job over its executions, this member's
 * index and the cluster's size, the wall-clock instant all members' generators start from, and in
 * an active-active run which copy this cluster runs (null otherwise).
 */
record ClusterPart(ClusterJob job, int member, int members, long startEpochNanos, ActiveActiveCopy copy) {
}
