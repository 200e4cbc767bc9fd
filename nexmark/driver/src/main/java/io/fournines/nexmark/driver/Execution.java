package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Set;

/**
 * How the engine schedules the job: the scenario's {@code execution}, {@code batch_ms},
 * {@code group_size} and {@code latency_target_ms} (scenarios/README.md, "Scenario files").
 *
 * @param model           {@code continuous}, {@code micro-batch} or {@code group}
 * @param batchMs         the batches' length; 0 when continuous
 * @param groupSize       batches launched at once: 1 for micro-batch; 0 when continuous, or when tuned
 * @param latencyTargetMs a tuned group size's target ({@code group_size: auto}); else 0
 */
public record Execution(String model, long batchMs, int groupSize, long latencyTargetMs) {

    public static final String CONTINUOUS_MODEL = "continuous";
    public static final String MICRO_BATCH = "micro-batch";
    public static final String GROUP = "group";
    public static final Execution CONTINUOUS = new Execution(CONTINUOUS_MODEL, 0, 0, 0);
    /** {@code group_size} that has the engine tune the group's size toward {@code latency_target_ms}. */
    public static final String AUTO = "auto";
    private static final Set<String> MODELS = Set.of(CONTINUOUS_MODEL, MICRO_BATCH, GROUP);

    public boolean batched() {
        return !model.equals(CONTINUOUS_MODEL);
    }

    /** The scenario's execution, which {@code engine} must run ({@code runs}: its registry entry's executions). */
    static Execution parse(JsonNode root, String engine, Set<String> runs) throws ScenarioException {
        String model = root.has("execution") ? Json.text(root, "execution") : CONTINUOUS_MODEL;
        if (!MODELS.contains(model)) {
            throw new ScenarioException("execution: must be one of \"continuous\", \"micro-batch\", \"group\"; is \"" + model + "\"");
        }
        if (!runs.contains(model)) {
            throw new ScenarioException("execution: " + engine + " runs \"" + String.join("\", \"", runs) + "\"; is \"" + model + "\"");
        }
        if (model.equals(CONTINUOUS_MODEL)) {
            for (String field : new String[] {"batch_ms", "group_size", "latency_target_ms"}) {
                if (root.has(field)) {
                    throw new ScenarioException(field + ": only for execution micro-batch or group; execution is continuous");
                }
            }
            return CONTINUOUS;
        }
        long batchMs = Json.integer(root, "batch_ms", 1);
        boolean tuned = root.has("group_size") && root.get("group_size").isTextual();
        if (tuned && !Json.text(root, "group_size").equals(AUTO)) {
            throw new ScenarioException("group_size: must be an integer or \"auto\"; is \"" + Json.text(root, "group_size") + "\"");
        }
        if (tuned != root.has("latency_target_ms")) {
            throw new ScenarioException("latency_target_ms: " + (tuned ? "missing; required when group_size is auto" : "only with group_size auto"));
        }
        long groupSize = tuned ? 0 : model.equals(MICRO_BATCH) && !root.has("group_size") ? 1 : Json.integer(root, "group_size", 1);
        if (model.equals(MICRO_BATCH) && groupSize != 1) {
            throw new ScenarioException("group_size: micro-batch launches one batch at a time (1); is " + (tuned ? AUTO : groupSize));
        }
        return new Execution(model, batchMs, Math.toIntExact(Math.min(groupSize, Integer.MAX_VALUE)), tuned ? Json.integer(root, "latency_target_ms", 1) : 0);
    }
}
