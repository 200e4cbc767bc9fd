package io.fournines.nexmark.codec;

import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NexmarkRecordsTest {

    private static final ByteBuffer SCRATCH = ByteBuffer.allocate(64 * 1024 + NexmarkRecords.MAX_PADDING_BYTES);

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 16, 1024, 10 * 1024, NexmarkRecords.MAX_PADDING_BYTES})
    void eventsRoundTripWithTheirPaddingOnTheWire(int padding) {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(1));
        for (long i = 0; i < 200; i++) {
            Event event = generator.event(i);
            long scheduled = 1_700_000_000_000_000_000L + i;
            byte[] unpadded = NexmarkRecords.value(event, scheduled, 0, SCRATCH);
            byte[] value = NexmarkRecords.value(event, scheduled, padding, SCRATCH);
            // The padding and, when there is some, its length of 1 to 3 bytes.
            assertThat(value.length - unpadded.length).isBetween(padding, padding == 0 ? 0 : padding + 3);
            assertThat(NexmarkRecords.decode(value)).isEqualTo(new NexmarkRecords.ScheduledEvent(event, scheduled));
        }
    }

    @Test
    void paddingOutOfRangeIsRefused() {
        Event event = new NexmarkGenerator(GeneratorConfig.defaults(1)).event(0);
        assertThatThrownBy(() -> NexmarkRecords.value(event, 0, NexmarkRecords.MAX_PADDING_BYTES + 1, SCRATCH))
                .hasMessage("padding must be 0 to 102400 bytes; is 102401");
        assertThatThrownBy(() -> NexmarkRecords.value(event, 0, -1, SCRATCH)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPaddingThatDoesNotMatchItsLengthIsRefused() {
        Event event = new NexmarkGenerator(GeneratorConfig.defaults(1)).event(0);
        byte[] value = NexmarkRecords.value(event, 0, 100, SCRATCH);
        byte[] cut = Arrays.copyOf(value, value.length - 1);
        assertThatThrownBy(() -> NexmarkRecords.decode(cut)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a padding of 100 bytes and 99 bytes");
        byte[] longer = Arrays.copyOf(value, value.length + 1);
        assertThatThrownBy(() -> NexmarkRecords.decode(longer)).hasMessageContaining("a padding of 100 bytes and 101 bytes");
    }
}
