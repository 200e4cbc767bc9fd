package io.fournines.nexmark.queries;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.fournines.nexmark.codec.EventJsonWriter;
import io.fournines.nexmark.model.Event;

import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * A query result as one line of JSON (without its end of line), the one form every writer of
 * results uses ({@code nexmark query}, the recording sink of {@code chaos}), so their files compare
 * line by line: Q0's results, which are events, in the event form the input reader reads back;
 * every other result as Jackson writes its record.
 */
public final class ResultLines {

    private static final ObjectWriter JSON = new ObjectMapper().writer();

    private ResultLines() {
    }

    public static String of(Object result) {
        if (result instanceof Event event) {
            StringWriter text = new StringWriter();
            EventJsonWriter events = new EventJsonWriter(text);
            events.write(event);
            events.flush();
            return text.toString().stripTrailing();
        }
        try {
            return JSON.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
