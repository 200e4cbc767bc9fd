package io.fournines.nexmark.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SinkWatermarksTest {

    @Test
    void aWindowIsCompleteOnceEveryInstanceHasPassedIt() {
        SinkWatermarks w = new SinkWatermarks(3);
        assertThat(w.advance(0, 100)).isEqualTo(SinkWatermarks.NONE);
        assertThat(w.advance(1, 200)).isEqualTo(SinkWatermarks.NONE);
        assertThat(w.advance(2, 150)).isEqualTo(100);
        assertThat(w.advance(0, 300)).isEqualTo(150);
    }

    @Test
    void aWatermarkNeverGoesBack() {
        SinkWatermarks w = new SinkWatermarks(1);
        assertThat(w.advance(0, 300)).isEqualTo(300);
        assertThat(w.advance(0, 100)).isEqualTo(300);
    }

    @Test
    void anEndedInstanceHoldsNothingBackButEndingCompletesNothing() {
        SinkWatermarks w = new SinkWatermarks(2);
        assertThat(w.ended(1)).isEqualTo(SinkWatermarks.NONE);
        assertThat(w.advance(0, 500)).isEqualTo(500);
        assertThat(w.ended(0)).isEqualTo(SinkWatermarks.ALL_ENDED);
    }

    @Test
    void anInstanceOutsideTheSinkIsRefused() {
        assertThatThrownBy(() -> new SinkWatermarks(2).advance(2, 0)).hasMessageContaining("sink instance 2 of a sink sized for 2");
    }
}
