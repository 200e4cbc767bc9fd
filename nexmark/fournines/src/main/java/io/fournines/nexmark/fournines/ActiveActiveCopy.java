package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.nexmark.driver.ScenarioException;

import java.net.InetSocketAddress;

/**
 * This cluster's part in an active-active run (scenario {@code mode: active-active}): the runner
 * starts two disjoint clusters on the same job and adds an {@code active_active} object to the job
 * JSON it submits to each, so both copies start their generators at the same instant (same event
 * sequence on the same schedule: identical results) and send their results to the one consumer
 * that keeps the first copy of each.
 *
 * @param copy            which copy this cluster runs, from 0
 * @param consumer        where the result consumer listens
 * @param startEpochNanos the generators' time origin, shared by both copies
 */
record ActiveActiveCopy(int copy, InetSocketAddress consumer, long startEpochNanos) {

    static final String FIELD = "active_active";

    /** The job's active-active settings; null when the job JSON has none (a single cluster). */
    static ActiveActiveCopy of(JsonNode job) throws ScenarioException {
        JsonNode node = job.get(FIELD);
        boolean activeActive = job.path("mode").asText().equals("active-active");
        if (node == null && activeActive) {
            throw new ScenarioException("mode: active-active needs the runner's " + FIELD + " settings (copy, consumer, start_epoch_ns) in the job");
        }
        if (node == null) {
            return null;
        }
        if (!activeActive) {
            throw new ScenarioException(FIELD + ": only for mode active-active; mode is " + job.path("mode"));
        }
        if (!node.isObject() || !node.path("copy").canConvertToInt() || !node.path("consumer").isTextual()
                || !node.path("start_epoch_ns").isIntegralNumber()) {
            throw new ScenarioException(FIELD + ": must be {\"copy\": N, \"consumer\": \"HOST:PORT\", \"start_epoch_ns\": T}; is " + node);
        }
        try {
            return new ActiveActiveCopy(node.get("copy").asInt(), ClusterConfig.address(node.get("consumer").asText()),
                    node.get("start_epoch_ns").asLong());
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(FIELD + ".consumer: " + e.getMessage());
        }
    }
}
