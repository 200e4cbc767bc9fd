package io.fournines.engine.execution;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdleBackoffTest {

    @Test
    void doublesFromMinimumToMaximumAndResets() {
        IdleBackoff backoff = new IdleBackoff(25, 200);
        long noDeadline = Long.MAX_VALUE;
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(25);
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(50);
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(100);
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(200);
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(200);
        backoff.reset();
        assertThat(backoff.nextPark(0, noDeadline)).isEqualTo(25);
    }

    @Test
    void withADeadlineTheWorkerSleepsUntilItWithinTheMaximum() {
        IdleBackoff backoff = new IdleBackoff(1_000, 1_000_000);
        assertThat(backoff.nextPark(5_000, 5_400)).as("shorter than the minimum: the deadline wins").isEqualTo(400);
        assertThat(backoff.nextPark(5_000, 505_000)).as("longer than the minimum, no backoff steps").isEqualTo(500_000);
        assertThat(backoff.nextPark(5_000, 9_000_000)).as("capped").isEqualTo(1_000_000);
        assertThat(backoff.nextPark(5_000, 4_000)).as("deadline already passed").isZero();
        assertThat(backoff.nextPark(0, Long.MAX_VALUE)).as("deadlines do not advance the backoff").isEqualTo(1_000);
    }

    @Test
    void rejectsAMaximumBelowTheMinimum() {
        assertThatThrownBy(() -> new IdleBackoff(100, 50)).hasMessageContaining("min=100ns max=50ns");
    }
}
