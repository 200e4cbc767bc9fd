package io.fournines.nexmark.ysb;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.fournines.nexmark.codec.MalformedEventException;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * An {@link AdEvent} as YSB writes it: one JSON object, every value a string, {@code event_time} in
 * epoch milliseconds. Reading is strict: each of the seven fields exactly once, a string,
 * {@code event_time} a whole number, and nothing else; the error names the line, the field and the
 * value.
 */
public final class AdEventJson {

    static final List<String> FIELDS = List.of("user_id", "page_id", "ad_id", "ad_type", "event_type", "event_time", "ip_address");
    private static final JsonFactory JSON = new JsonFactory();
    private static final int QUOTE_LIMIT = 40;

    private AdEventJson() {
    }

    public static String write(AdEvent e) {
        StringBuilder b = new StringBuilder(200);
        String[] values = {e.userId(), e.pageId(), e.adId(), e.adType(), e.eventType(), Long.toString(e.eventTimeMillis()), e.ipAddress()};
        b.append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            // Ids, types, digits and dotted addresses: nothing that JSON would escape.
            b.append('"').append(FIELDS.get(i)).append("\":\"").append(values[i]).append('"');
        }
        return b.append('}').toString();
    }

    /** @throws MalformedEventException naming {@code lineNumber} and, where one is to blame, the field */
    public static AdEvent read(String line, long lineNumber) {
        String[] values = new String[FIELDS.size()];
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedEventException(lineNumber, null, "not a JSON object: " + quote(line));
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                int i = FIELDS.indexOf(name);
                if (i < 0) {
                    throw new MalformedEventException(lineNumber, name, "unknown field; a YSB event has " + String.join(", ", FIELDS));
                }
                if (values[i] != null) {
                    throw new MalformedEventException(lineNumber, name, "given twice");
                }
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    throw new MalformedEventException(lineNumber, name, "must be a string; is " + quote(p.getText()));
                }
                values[i] = p.getText();
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                throw new MalformedEventException(lineNumber, null, "not one JSON object: " + quote(line));
            }
        } catch (JsonProcessingException e) {
            throw new MalformedEventException(lineNumber, null, "not JSON (" + e.getOriginalMessage() + "): " + quote(line));
        } catch (IOException e) {
            throw new MalformedEventException(lineNumber, null, "unreadable: " + e.getMessage());
        }
        int missing = Arrays.asList(values).indexOf(null);
        if (missing >= 0) {
            throw new MalformedEventException(lineNumber, FIELDS.get(missing), "missing");
        }
        return new AdEvent(values[0], values[1], values[2], values[3], values[4], eventTime(values[5], lineNumber), values[6]);
    }

    private static long eventTime(String text, long lineNumber) {
        try {
            long millis = Long.parseLong(text);
            if (millis >= 0) {
                return millis;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new MalformedEventException(lineNumber, "event_time", "must be epoch milliseconds (digits); is " + quote(text));
    }

    private static String quote(String text) {
        return "'" + (text.length() > QUOTE_LIMIT ? text.substring(0, QUOTE_LIMIT) + "..." : text) + "'";
    }
}
