package io.fournines.nexmark.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes events as JSON Lines, one {@code {"person":{...}}}, {@code {"auction":{...}}} or
 * {@code {"bid":{...}}} per line, fields in the model's order (see DESIGN.md section 5).
 * Streams through Jackson's generator, so writing allocates no tree per event.
 */
public final class EventJsonWriter implements Closeable {
    private final JsonGenerator json;

    public EventJsonWriter(Writer out) {
        try {
            this.json = new JsonFactory().createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Lines are ended explicitly below; Jackson's default would put a space between root values.
        json.setRootValueSeparator(null);
    }

    public void write(Event event) {
        try {
            json.writeStartObject();
            if (event instanceof Person p) {
                json.writeObjectFieldStart("person");
                json.writeNumberField("id", p.id());
                json.writeStringField("name", p.name());
                json.writeStringField("emailAddress", p.emailAddress());
                json.writeStringField("creditCard", p.creditCard());
                json.writeStringField("city", p.city());
                json.writeStringField("state", p.state());
                json.writeNumberField("dateTime", p.dateTime());
                json.writeStringField("extra", p.extra());
            } else if (event instanceof Auction a) {
                json.writeObjectFieldStart("auction");
                json.writeNumberField("id", a.id());
                json.writeStringField("itemName", a.itemName());
                json.writeStringField("description", a.description());
                json.writeNumberField("initialBid", a.initialBid());
                json.writeNumberField("reserve", a.reserve());
                json.writeNumberField("dateTime", a.dateTime());
                json.writeNumberField("expires", a.expires());
                json.writeNumberField("seller", a.seller());
                json.writeNumberField("category", a.category());
                json.writeStringField("extra", a.extra());
            } else {
                Bid b = (Bid) event;
                json.writeObjectFieldStart("bid");
                json.writeNumberField("auction", b.auction());
                json.writeNumberField("bidder", b.bidder());
                json.writeNumberField("price", b.price());
                json.writeNumberField("dateTime", b.dateTime());
                json.writeStringField("extra", b.extra());
            }
            json.writeEndObject();
            json.writeEndObject();
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void flush() {
        try {
            json.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flushes and closes the underlying writer. */
    @Override
    public void close() {
        try {
            json.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
