package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where a Kafka load is: the broker and the run's topic, which the load generator fills. The runner
 * gives them on the command line of a member alone, or in a {@code kafka_endpoint} object it adds
 * to the job it submits to a cluster; there it may add {@code results_topic}, where the job writes
 * every result too (in transactions committed with its snapshots under exactly-once).
 *
 * @param resultsTopic null: the results go to no topic
 */
public record KafkaEndpoint(String bootstrap, String topic, String resultsTopic) {

    public static final String FIELD = "kafka_endpoint";

    /** The job's endpoint; null when it names none. */
    static KafkaEndpoint of(JsonNode job) throws ScenarioException {
        JsonNode node = job.get(FIELD);
        if (node == null) {
            return null;
        }
        if (!node.isObject() || !node.path("bootstrap").isTextual() || !node.path("topic").isTextual()
                || node.get("bootstrap").asText().isBlank() || node.get("topic").asText().isBlank()) {
            throw new ScenarioException(FIELD + ": must be {\"bootstrap\": \"HOST:PORT\", \"topic\": T}; is " + node);
        }
        JsonNode results = node.get("results_topic");
        if (results != null && (!results.isTextual() || results.asText().isBlank() || results.asText().equals(node.get("topic").asText()))) {
            throw new ScenarioException(FIELD + ".results_topic: must name a topic other than the load's; is " + results);
        }
        return new KafkaEndpoint(node.get("bootstrap").asText(), node.get("topic").asText(), results == null ? null : results.asText());
    }
}
