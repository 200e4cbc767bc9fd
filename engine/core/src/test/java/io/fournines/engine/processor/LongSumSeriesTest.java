package io.fournines.engine.processor;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The snapshot form of window sums gives back every partial in order, with its frame, whatever its keys. */
class LongSumSeriesTest {

    private record Partial(long frameEnd, Object key, long sum) {
    }

    @Test
    void longKeysAreKeptUnboxedAndComeBackAsLongs() {
        LongSumSeries series = build(List.of(new Partial(10, 1L, 5), new Partial(10, 2L, 6), new Partial(20, 1L, 7)));

        assertThat(series.longKeys()).containsExactly(1, 2, 1);
        assertThat(series.keys()).isNull();
        assertThat(partials(series)).containsExactly(new Partial(10, 1L, 5), new Partial(10, 2L, 6), new Partial(20, 1L, 7));
    }

    @Test
    void aKeyThatIsNotALongTurnsEveryKeyIntoAnObject() {
        List<Partial> added = List.of(new Partial(10, 1L, 5), new Partial(20, "seven", 6), new Partial(20, 3L, 7));
        LongSumSeries series = build(added);

        assertThat(series.longKeys()).isNull();
        assertThat(partials(series)).containsExactlyElementsOf(added);
    }

    private static LongSumSeries build(List<Partial> partials) {
        LongSumSeries.Builder builder = new LongSumSeries.Builder();
        partials.forEach(p -> builder.add(p.frameEnd(), p.key(), p.sum()));
        return builder.build();
    }

    private static List<Partial> partials(LongSumSeries series) {
        List<Partial> out = new ArrayList<>();
        series.forEach((frameEnd, key, sum) -> out.add(new Partial(frameEnd, key, sum)));
        return out;
    }
}
