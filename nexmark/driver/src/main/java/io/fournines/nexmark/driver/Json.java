package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.JsonNode;

/** Typed reads of scenario.json fields; each failure names the field's dotted path. */
final class Json {

    private Json() {
    }

    static JsonNode field(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = parent.get(path.substring(path.lastIndexOf('.') + 1));
        if (node == null || node.isNull()) {
            throw new ScenarioException(path + ": missing");
        }
        return node;
    }

    static JsonNode object(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isObject()) {
            throw new ScenarioException(path + ": must be an object; is " + node);
        }
        return node;
    }

    static String text(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isTextual()) {
            throw new ScenarioException(path + ": must be a string; is " + node);
        }
        return node.asText();
    }

    static double number(JsonNode parent, String path) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isNumber()) {
            throw new ScenarioException(path + ": must be a number; is " + node);
        }
        return node.asDouble();
    }

    static long integer(JsonNode parent, String path, long min) throws ScenarioException {
        JsonNode node = field(parent, path);
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new ScenarioException(path + ": must be an integer; is " + node);
        }
        if (node.asLong() < min) {
            throw new ScenarioException(path + ": must be at least " + min + "; is " + node.asLong());
        }
        return node.asLong();
    }
}
