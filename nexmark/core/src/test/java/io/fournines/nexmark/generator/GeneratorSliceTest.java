package io.fournines.nexmark.generator;

import io.fournines.nexmark.model.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GeneratorSliceTest {
    private static final GeneratorConfig CONFIG = GeneratorConfig.defaults(7).withKeys(10_000).withRate(1_000_000);

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 50})
    void nGeneratorsTogetherMakeExactlyTheEventsOfOne(int count) {
        int events = 30_000;
        TreeMap<Long, Event> merged = new TreeMap<>();
        for (int index = 0; index < count; index++) {
            GeneratorSlice slice = new GeneratorSlice(CONFIG, index, count);
            while (slice.nextEventId() < events) {
                long id = slice.nextEventId();
                assertThat(id % count).isEqualTo(index);
                Event previous = merged.put(id, slice.next());
                assertThat(previous).as("event %d made twice", id).isNull();
            }
        }
        NexmarkGenerator single = new NexmarkGenerator(CONFIG);
        assertThat(merged).hasSize(events);
        merged.forEach((id, event) -> assertThat(event).isEqualTo(single.event(id)));
    }

    @Test
    void nextEventIsDueAtItsScheduledOffset() {
        GeneratorSlice slice = new GeneratorSlice(CONFIG.withRate(4), 1, 3);
        assertThat(slice.nextScheduledOffsetNanos()).isEqualTo(250_000_000L);
        slice.next();
        assertThat(slice.nextEventId()).isEqualTo(4);
        assertThat(slice.nextScheduledOffsetNanos()).isEqualTo(1_000_000_000L);
    }

    @Test
    void indexMustBeWithinCount() {
        assertThatThrownBy(() -> new GeneratorSlice(CONFIG, 3, 3)).hasMessageContaining("index 3 of 3");
        assertThatThrownBy(() -> new GeneratorSlice(CONFIG, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
