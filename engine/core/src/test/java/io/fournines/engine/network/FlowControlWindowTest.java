package io.fournines.engine.network;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The receive window's rule, as in Jet: halfway toward 3x the last period, never shrinking while idle. */
class FlowControlWindowTest {

    @Test
    void theWindowMovesHalfwayTowardThreeTimesWhatWasDelivered() {
        assertThat(FlowControl.nextWindow(10_000, 20_000, true)).isEqualTo(10_000 + (60_000 - 10_000) / 2);
        assertThat(FlowControl.nextWindow(40_000, 5_000, true)).isEqualTo(40_000 + (15_000 - 40_000) / 2);
    }

    @Test
    void anIdleReceiverKeepsItsWindowAndTheWindowStaysInItsBounds() {
        assertThat(FlowControl.nextWindow(40_000, 0, false)).isEqualTo(40_000);
        assertThat(FlowControl.nextWindow(FlowControl.MIN_WINDOW, 0, true)).isEqualTo(FlowControl.MIN_WINDOW);
        assertThat(FlowControl.nextWindow(FlowControl.MAX_WINDOW, 10_000_000, true)).isEqualTo(FlowControl.MAX_WINDOW);
    }
}
