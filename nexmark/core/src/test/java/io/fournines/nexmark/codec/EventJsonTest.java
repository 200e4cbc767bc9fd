package io.fournines.nexmark.codec;

import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class EventJsonTest {
    private static final String GOOD_BID =
            "{\"bid\":{\"auction\":1000,\"bidder\":1001,\"price\":250,\"dateTime\":1436918400000,\"extra\":\"\"}}";

    @Test
    void writesOneObjectPerLineWithBeamFieldNamesInModelOrder() {
        StringWriter out = new StringWriter();
        try (EventJsonWriter writer = new EventJsonWriter(out)) {
            writer.write(new Bid(1000, 1001, 250, 1_436_918_400_000L, ""));
            writer.write(new Person(1000, "Kate Smith", "k@x.com", "1234 5678 9012 3456", "Bend", "OR", 7, ""));
            writer.write(new Auction(1000, "item", "desc", 100, 200, 7, 9, 1000, 10, "pad"));
        }
        assertThat(out.toString()).isEqualTo(GOOD_BID + "\n"
                + "{\"person\":{\"id\":1000,\"name\":\"Kate Smith\",\"emailAddress\":\"k@x.com\","
                + "\"creditCard\":\"1234 5678 9012 3456\",\"city\":\"Bend\",\"state\":\"OR\",\"dateTime\":7,\"extra\":\"\"}}\n"
                + "{\"auction\":{\"id\":1000,\"itemName\":\"item\",\"description\":\"desc\",\"initialBid\":100,"
                + "\"reserve\":200,\"dateTime\":7,\"expires\":9,\"seller\":1000,\"category\":10,\"extra\":\"pad\"}}\n");
    }

    @Test
    void generatedAndAwkwardEventsRoundTrip() {
        List<Event> events = new ArrayList<>();
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(5).withExtraPadding(true));
        for (long i = 0; i < 5_000; i++) {
            events.add(generator.event(i));
        }
        events.add(new Person(Long.MIN_VALUE, "a \"quoted\"\nname", "\u4f60@\uD83D\uDE00", "\\", "\t", "", Long.MAX_VALUE, "\u0001"));
        StringWriter out = new StringWriter();
        try (EventJsonWriter writer = new EventJsonWriter(out)) {
            events.forEach(writer::write);
        }
        assertThat(out.toString().lines()).hasSize(events.size());
        EventJsonReader reader = EventJsonReader.strict(utf8(out.toString()));
        for (Event event : events) {
            assertThat(reader.read()).isEqualTo(event);
        }
        assertThat(reader.read()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "not JSON           | {\"bid\":                                    | bid   | Unexpected end-of-input",
        "not an object      | [1,2]                                        |       | expected an object",
        "empty object       | {}                                           |       | empty object",
        "unknown type       | {\"trade\":{}}                               | trade | unknown event type",
        "body not an object | {\"bid\":5}                                  | bid   | expected an object, found 5",
        "string for integer | " + "{\"bid\":{\"auction\":\"x\"}}           | bid.auction | expected an integer, found \"x\"",
        "fraction           | {\"bid\":{\"price\":2.5}}                     | bid.price | expected an integer, found 2.5",
        "out of range       | {\"bid\":{\"price\":99999999999999999999}}    | bid.price | out of the range of a long",
        "null string        | {\"bid\":{\"extra\":null}}                    | bid.extra | expected a string, found null",
        "unknown field      | {\"bid\":{\"auctionId\":1}}                   | bid.auctionId | unknown field; bid has auction, bidder, price, dateTime, extra",
        "duplicate field    | {\"bid\":{\"price\":1,\"price\":2}}           | bid.price | appears twice",
        "missing field      | {\"bid\":{\"auction\":1,\"bidder\":2,\"dateTime\":3,\"extra\":\"\"}} | bid.price | missing",
        "missing in person  | {\"person\":{\"id\":1}}                       | person.name | missing",
        "bad JSON in field  | {\"auction\":{\"id\":1,\"itemName\":tru}}     | auction.itemName | Unrecognized token",
    })
    void malformedLinesNameTheLineAndTheField(String why, String line, String field, String reason) {
        String input = GOOD_BID + "\n" + line + "\n";
        EventJsonReader reader = EventJsonReader.strict(utf8(input));
        assertThat(reader.read()).isNotNull();
        MalformedEventException error = catchThrowableOfType(MalformedEventException.class, reader::read);
        assertThat(error).as(why).isNotNull();
        assertThat(error.lineNumber()).isEqualTo(2);
        assertThat(error.field()).isEqualTo(field);
        assertThat(error.getMessage()).startsWith("line 2" + (field == null ? ": " : ", field " + field + ": "))
                .contains(reason);
    }

    @Test
    void aSecondEventOrTrailingContentOnALineIsAnError() {
        String twoEvents = "{\"bid\":" + GOOD_BID.substring(7, GOOD_BID.length() - 1) + ",\"person\":{}}";
        MalformedEventException error = catchThrowableOfType(MalformedEventException.class,
                () -> EventJsonReader.strict(utf8(twoEvents)).read());
        assertThat(error).hasMessage("line 1: a line holds one event, found a second: person");
        error = catchThrowableOfType(MalformedEventException.class,
                () -> EventJsonReader.strict(utf8(GOOD_BID + " {}")).read());
        assertThat(error).hasMessage("line 1: content after the event");
    }

    @Test
    void skippingReaderCountsAndSetsAsideBadLines() {
        String input = GOOD_BID + "\n"
                + "{\"bid\":{\"price\":\"cheap\"}}\n"
                + "\n"
                + GOOD_BID + "\n"
                + "garbage\n"
                + GOOD_BID + "\n";
        List<MalformedEventException> setAside = new ArrayList<>();
        EventJsonReader reader = EventJsonReader.skippingBad(utf8(input), setAside::add);
        int events = 0;
        while (reader.read() != null) {
            events++;
        }
        assertThat(events).isEqualTo(3);
        assertThat(reader.badLines()).isEqualTo(2);
        assertThat(setAside).extracting(MalformedEventException::lineNumber).containsExactly(2L, 5L);
        assertThat(setAside).extracting(MalformedEventException::field).containsExactly("bid.price", null);
    }

    /** A line with a byte that is not UTF-8 is malformed like any other: named, skipped and counted; the lines around it are read. */
    @Test
    void aLineThatIsNotUtf8IsAMalformedLine() {
        byte[] good = (GOOD_BID + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] bad = "{\"bid\":{\"extra\":\"caf\u00e9\"}}\n".getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(good);
        input.writeBytes(bad);
        input.writeBytes(good);
        List<MalformedEventException> setAside = new ArrayList<>();
        EventJsonReader reader = EventJsonReader.skippingBad(new ByteArrayInputStream(input.toByteArray()), setAside::add);
        assertThat(reader.read()).isNotNull();
        assertThat(reader.read()).isNotNull();
        assertThat(reader.read()).isNull();
        assertThat(setAside).singleElement().extracting(Throwable::getMessage)
                .isEqualTo("line 2: not UTF-8: byte 0xE9 at byte 21 of the line");
    }

    private static InputStream utf8(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
