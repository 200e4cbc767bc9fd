package io.fournines.nexmark.codec;

import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import org.junit.jupiter.api.Test;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinaryEventCodecTest {

    @Test
    void generatedEventsRoundTrip() {
        for (boolean padding : new boolean[] {false, true}) {
            NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(3).withExtraPadding(padding));
            for (long i = 0; i < 20_000; i++) {
                Event event = generator.event(i);
                assertThat(BinaryEventCodec.decode(BinaryEventCodec.encode(event))).isEqualTo(event);
            }
        }
    }

    @Test
    void extremeValuesAndNonAsciiTextRoundTrip() {
        List<Event> events = List.of(
                new Person(Long.MIN_VALUE, "Zoë Ødegård", "\u4f60\u597d@example.com", "", "S\u00e3o Paulo",
                        "\uD83D\uDE00", Long.MAX_VALUE, "quote \" newline \n"),
                new Auction(-1, "", "d", Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 0, -10, "x"),
                new Bid(Long.MAX_VALUE, Long.MIN_VALUE, -5, 0, "\u0000"));
        for (Event event : events) {
            assertThat(BinaryEventCodec.decode(BinaryEventCodec.encode(event))).isEqualTo(event);
        }
    }

    @Test
    void aGeneratedBidTakesAtMostNineteenBytes() {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(3).withKeys(10_000));
        for (long i = 4; i < 100_000; i += 50) {
            assertThat(BinaryEventCodec.encode(generator.event(i))).hasSizeLessThanOrEqualTo(19);
        }
    }

    @Test
    void eventsFollowEachOtherInOneBuffer() {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(9));
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        for (long i = 0; i < 200; i++) {
            BinaryEventCodec.encode(generator.event(i), buffer);
        }
        buffer.flip();
        for (long i = 0; i < 200; i++) {
            assertThat(BinaryEventCodec.decode(buffer)).isEqualTo(generator.event(i));
        }
        assertThat(buffer.hasRemaining()).isFalse();
    }

    @Test
    void malformedInputIsRejected() {
        byte[] bid = BinaryEventCodec.encode(new Bid(1000, 1001, 500, 1_436_918_400_000L, ""));
        assertThatThrownBy(() -> BinaryEventCodec.decode(Arrays.copyOf(bid, bid.length - 2)))
                .isInstanceOf(BufferUnderflowException.class);
        assertThatThrownBy(() -> BinaryEventCodec.decode(Arrays.copyOf(bid, bid.length + 1)))
                .hasMessage("1 bytes left after the event");
        byte[] wrongTag = bid.clone();
        wrongTag[0] = 9;
        assertThatThrownBy(() -> BinaryEventCodec.decode(wrongTag)).hasMessage("unknown event tag 9 at byte 0");
        // The bid's extra length claims 100 bytes that are not there.
        byte[] longString = bid.clone();
        longString[longString.length - 1] = (byte) 100;
        assertThatThrownBy(() -> BinaryEventCodec.decode(longString)).hasMessageContaining("string length 50");
    }
}
