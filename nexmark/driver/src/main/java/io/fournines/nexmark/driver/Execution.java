package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Set;

/**
 * How the engine schedules the job: the scenario's {@code execution}, {@code batch_ms} and
 * {@code group_size} (scenarios/README.md, "Execution models").
 *
 * @param model     {@code continuous}, {@code micro-batch} or {@code group}
 * @param batchMs   the batches' length; 0 when continuous
 * @param groupSize batches launched at once: 1 for micro-batch; 0 when continuous
 */
public record Execution(String model, long batchMs, int groupSize) {

    public static final String CONTINUOUS_MODEL = "continuous";
    public static final String MICRO_BATCH = "micro-batch";
    public static final String GROUP = "group";
    public static final Execution CONTINUOUS = new Execution(CONTINUOUS_MODEL, 0, 0);
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
            for (String field : new String[] {"batch_ms", "group_size"}) {
                if (root.has(field)) {
                    throw new ScenarioException(field + ": only for execution micro-batch or group; execution is continuous");
                }
            }
            return CONTINUOUS;
        }
        long batchMs = Json.integer(root, "batch_ms", 1);
        long groupSize = model.equals(MICRO_BATCH) && !root.has("group_size") ? 1 : Json.integer(root, "group_size", 1);
        if (model.equals(MICRO_BATCH) && groupSize != 1) {
            throw new ScenarioException("group_size: micro-batch launches one batch at a time (1); is " + groupSize);
        }
        return new Execution(model, batchMs, Math.toIntExact(Math.min(groupSize, Integer.MAX_VALUE)));
    }
}
