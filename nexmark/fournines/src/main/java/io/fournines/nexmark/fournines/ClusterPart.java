package io.fournines.nexmark.fournines;

import io.fournines.engine.cluster.ClusterJob;

/**
 * What a member needs to run its part of a cluster job: the job over its executions, this member's
 * index and the cluster's size, the wall-clock instant all members' generators start from, in an
 * active-active run which copy this cluster runs (null otherwise), whether this member joined the
 * job while it ran (a lost member back): its clock, warm-up and end follow the job's start; and what
 * a runner that checks the output asked for ({@link CheckedRun#NONE}: nothing).
 */
record ClusterPart(ClusterJob job, int member, int members, long startEpochNanos, ActiveActiveCopy copy, boolean joined, CheckedRun checked) {
}
