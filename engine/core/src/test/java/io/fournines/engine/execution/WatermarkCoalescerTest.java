package io.fournines.engine.execution;

import org.junit.jupiter.api.Test;

import static io.fournines.engine.execution.WatermarkCoalescer.IDLE;
import static io.fournines.engine.execution.WatermarkCoalescer.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WatermarkCoalescerTest {

    @Test
    void emitsTheMinimumOnlyWhenItRises() {
        WatermarkCoalescer c = new WatermarkCoalescer(2);
        c.observe(0, 10);
        assertThat(c.next()).as("input 1 has said nothing yet").isEqualTo(NONE);
        c.observe(1, 5);
        assertThat(c.next()).isEqualTo(5);
        c.observe(1, 20);
        assertThat(c.next()).isEqualTo(10);
        assertThat(c.next()).as("already emitted").isEqualTo(NONE);
    }

    @Test
    void anIdleInputNoLongerHoldsTheOthersBack() {
        WatermarkCoalescer c = new WatermarkCoalescer(3);
        c.observe(0, 100);
        c.observe(1, 50);
        c.observe(2, IDLE);
        assertThat(c.next()).isEqualTo(50);
        c.observe(1, 200);
        assertThat(c.next()).isEqualTo(100);
    }

    @Test
    void whenAllInputsGoIdleTheHighestWatermarkThenTheIdleMarkerAreEmitted() {
        WatermarkCoalescer c = new WatermarkCoalescer(2);
        c.observe(0, 30);
        c.observe(1, 70);
        assertThat(c.next()).isEqualTo(30);
        c.observe(0, IDLE);
        assertThat(c.next()).isEqualTo(70);
        c.observe(1, IDLE);
        assertThat(c.next()).isEqualTo(IDLE);
        assertThat(c.next()).isEqualTo(NONE);
    }

    @Test
    void anInputComingBackFromIdleIsAnnounced() {
        WatermarkCoalescer c = new WatermarkCoalescer(1);
        c.observe(0, 30);
        assertThat(c.next()).isEqualTo(30);
        c.observe(0, IDLE);
        assertThat(c.next()).isEqualTo(IDLE);
        c.observe(0, 20);
        assertThat(c.next()).as("active again, at the last emitted watermark").isEqualTo(30);
        c.observe(0, 40);
        assertThat(c.next()).isEqualTo(40);
    }

    @Test
    void aDoneInputIsIgnored() {
        WatermarkCoalescer c = new WatermarkCoalescer(2);
        c.observe(0, 10);
        c.inputDone(1);
        assertThat(c.next()).isEqualTo(10);
    }

    @Test
    void aWatermarkGoingBackIsAnError() {
        WatermarkCoalescer c = new WatermarkCoalescer(1);
        c.observe(0, 10);
        assertThatThrownBy(() -> c.observe(0, 9)).hasMessageContaining("went back on input 0: 9 after 10");
    }
}
