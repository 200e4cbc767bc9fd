package io.fournines.nexmark.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the JSON Lines form written by {@link EventJsonWriter}. Every field of the event is
 * required, typed (integers must be integers that fit a long; strings must be strings) and unknown
 * fields are errors, so a typo never silently becomes a default. Blank lines are skipped.
 *
 * <p>The input is bytes, decoded line by line as strict UTF-8: a line that is not UTF-8 is a
 * malformed line like any other, named by its number, never silently replaced.
 *
 * <p>A strict reader throws {@link MalformedEventException} at the first bad line; a skipping
 * reader hands each bad line's exception to a callback, counts it and moves on.
 */
public final class EventJsonReader implements Closeable {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int QUOTE_LIMIT = 40;

    private enum FieldType { LONG, STRING }

    private static final Map<String, FieldType> PERSON = schema(
            "id", FieldType.LONG, "name", FieldType.STRING, "emailAddress", FieldType.STRING,
            "creditCard", FieldType.STRING, "city", FieldType.STRING, "state", FieldType.STRING,
            "dateTime", FieldType.LONG, "extra", FieldType.STRING);
    private static final Map<String, FieldType> AUCTION = schema(
            "id", FieldType.LONG, "itemName", FieldType.STRING, "description", FieldType.STRING,
            "initialBid", FieldType.LONG, "reserve", FieldType.LONG, "dateTime", FieldType.LONG,
            "expires", FieldType.LONG, "seller", FieldType.LONG, "category", FieldType.LONG,
            "extra", FieldType.STRING);
    private static final Map<String, FieldType> BID = schema(
            "auction", FieldType.LONG, "bidder", FieldType.LONG, "price", FieldType.LONG,
            "dateTime", FieldType.LONG, "extra", FieldType.STRING);

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    /** Null for a strict reader. */
    private final Consumer<MalformedEventException> onBadLine;
    private long lineNumber;
    private long badLines;

    private EventJsonReader(InputStream in, Consumer<MalformedEventException> onBadLine) {
        this.in = in;
        this.onBadLine = onBadLine;
    }

    /** A reader that throws {@link MalformedEventException} at the first malformed line. */
    public static EventJsonReader strict(InputStream in) {
        return new EventJsonReader(in, null);
    }

    /** A reader that passes each malformed line's error to {@code onBadLine}, counts it and skips it. */
    public static EventJsonReader skippingBad(InputStream in, Consumer<MalformedEventException> onBadLine) {
        if (onBadLine == null) {
            throw new IllegalArgumentException("onBadLine must not be null; use strict() to fail on bad lines");
        }
        return new EventJsonReader(in, onBadLine);
    }

    /**
     * The next event, or null at the end of the input.
     *
     * @throws MalformedEventException (strict reader only) on a line that is not a valid event
     */
    public Event read() {
        byte[] bytes;
        while ((bytes = readLine()) != null) {
            lineNumber++;
            try {
                String text = decode(bytes);
                if (text.isBlank()) {
                    continue;
                }
                return parse(text);
            } catch (MalformedEventException e) {
                if (onBadLine == null) {
                    throw e;
                }
                badLines++;
                onBadLine.accept(e);
            }
        }
        return null;
    }

    /** Lines skipped as malformed so far (always 0 for a strict reader). */
    public long badLines() {
        return badLines;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next line's bytes without its end ({@code \n} or {@code \r\n}); null at the end of the input. */
    private byte[] readLine() {
        line.reset();
        try {
            while (true) {
                if (position == limit) {
                    limit = Math.max(0, in.read(buffer));
                    position = 0;
                    if (limit == 0) {
                        if (line.size() == 0) {
                            return null;
                        }
                        break;
                    }
                }
                int start = position;
                while (position < limit && buffer[position] != '\n') {
                    position++;
                }
                line.write(buffer, start, position - start);
                if (position < limit) {
                    position++;
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read line " + (lineNumber + 1) + ": " + e.getMessage(), e);
        }
        byte[] bytes = line.toByteArray();
        int n = bytes.length;
        return n > 0 && bytes[n - 1] == '\r' ? Arrays.copyOf(bytes, n - 1) : bytes;
    }

    private String decode(byte[] bytes) {
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            int at = firstInvalidByte(bytes);
            throw new MalformedEventException(lineNumber, null,
                    "not UTF-8: byte 0x" + String.format("%02X", bytes[at] & 0xff) + " at byte " + (at + 1) + " of the line");
        }
    }

    /** Where strict decoding of {@code bytes} first fails. */
    private int firstInvalidByte(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        utf8.reset();
        CoderResult result = utf8.decode(in, out, true);
        return result.isError() ? in.position() : 0;
    }

    private Event parse(String line) {
        JsonParser json;
        try {
            json = JSON.createParser(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (json) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw bad(null, "expected an object such as {\"bid\":{...}}");
            }
            if (json.nextToken() != JsonToken.FIELD_NAME) {
                throw bad(null, "empty object: expected one of person, auction, bid");
            }
            String type = json.currentName();
            Map<String, FieldType> schema = switch (type) {
                case "person" -> PERSON;
                case "auction" -> AUCTION;
                case "bid" -> BID;
                default -> throw bad(type, "unknown event type, expected one of person, auction, bid");
            };
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw bad(type, "expected an object, found " + describe(json));
            }
            Map<String, Object> values = readFields(json, type, schema);
            Event event = switch (type) {
                case "person" -> new Person(longValue(values, "id"), (String) values.get("name"),
                        (String) values.get("emailAddress"), (String) values.get("creditCard"),
                        (String) values.get("city"), (String) values.get("state"),
                        longValue(values, "dateTime"), (String) values.get("extra"));
                case "auction" -> new Auction(longValue(values, "id"), (String) values.get("itemName"),
                        (String) values.get("description"), longValue(values, "initialBid"),
                        longValue(values, "reserve"), longValue(values, "dateTime"),
                        longValue(values, "expires"), longValue(values, "seller"),
                        longValue(values, "category"), (String) values.get("extra"));
                default -> new Bid(longValue(values, "auction"), longValue(values, "bidder"),
                        longValue(values, "price"), longValue(values, "dateTime"), (String) values.get("extra"));
            };
            if (json.nextToken() == JsonToken.FIELD_NAME) {
                throw bad(null, "a line holds one event, found a second: " + json.currentName());
            }
            if (json.nextToken() != null) {
                throw bad(null, "content after the event");
            }
            return event;
        } catch (JsonProcessingException e) {
            // Jackson reads a field's name and the start of its value in one step, so the parsing
            // context, not the last token we saw, knows which field the error is in.
            throw bad(path(json.getParsingContext()), e.getOriginalMessage());
        } catch (IOException e) {
            // Parsing a String does no I/O; any other IOException is a parser bug surfacing.
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, Object> readFields(JsonParser json, String type, Map<String, FieldType> schema)
            throws IOException {
        Map<String, Object> values = new HashMap<>();
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            String field = type + "." + name;
            FieldType fieldType = schema.get(name);
            if (fieldType == null) {
                throw bad(field, "unknown field; " + type + " has " + String.join(", ", schema.keySet()));
            }
            if (values.containsKey(name)) {
                throw bad(field, "appears twice");
            }
            JsonToken token = json.nextToken();
            if (fieldType == FieldType.LONG) {
                if (token != JsonToken.VALUE_NUMBER_INT) {
                    throw bad(field, "expected an integer, found " + describe(json));
                }
                if (json.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw bad(field, "integer out of the range of a long: " + json.getText());
                }
                values.put(name, json.getLongValue());
            } else {
                if (token != JsonToken.VALUE_STRING) {
                    throw bad(field, "expected a string, found " + describe(json));
                }
                values.put(name, json.getText());
            }
        }
        for (String name : schema.keySet()) {
            if (!values.containsKey(name)) {
                throw bad(type + "." + name, "missing");
            }
        }
        return values;
    }

    private static long longValue(Map<String, Object> values, String name) {
        return (Long) values.get(name);
    }

    private MalformedEventException bad(String field, String reason) {
        return new MalformedEventException(lineNumber, field, reason);
    }

    /** Dotted names of the fields enclosing the parser's position, or null at the top level. */
    private static String path(JsonStreamContext context) {
        String path = null;
        for (JsonStreamContext c = context; c != null; c = c.getParent()) {
            String name = c.getCurrentName();
            if (name != null) {
                path = path == null ? name : name + "." + path;
            }
        }
        return path;
    }

    /** The current token as a short quote for an error message. */
    private static String describe(JsonParser json) throws IOException {
        JsonToken token = json.currentToken();
        if (token == null) {
            return "end of line";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> {
                String text = json.getText();
                yield '"' + (text.length() > QUOTE_LIMIT ? text.substring(0, QUOTE_LIMIT) + "..." : text) + '"';
            }
            default -> json.getText();
        };
    }

    private static Map<String, FieldType> schema(Object... namesAndTypes) {
        Map<String, FieldType> schema = new LinkedHashMap<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) {
            schema.put((String) namesAndTypes[i], (FieldType) namesAndTypes[i + 1]);
        }
        return schema;
    }
}
