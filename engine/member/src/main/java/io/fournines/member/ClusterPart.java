package io.fournines.member;

import io.fournines.engine.network.JobNetwork;

/**
 * What a member needs to run its part of a cluster job: the job's network and the wall-clock
 * instant all members' generators start from.
 */
record ClusterPart(JobNetwork network, long startEpochNanos) {
}
