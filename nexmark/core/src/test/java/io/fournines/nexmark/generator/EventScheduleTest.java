package io.fournines.nexmark.generator;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventScheduleTest {

    @Test
    void offsetsAreExactFloorsEvenWhereIdTimesABillionOverflows() {
        long rate = 25_000_000;
        EventSchedule schedule = new EventSchedule(rate);
        // 10^13 * 10^9 overflows a long many times over; at 25 M events/s that is 4.6 days in.
        for (long id : new long[] {0, 1, 24_999_999, 25_000_001, 10_000_000_000_000L + 17}) {
            BigInteger exact = BigInteger.valueOf(id).multiply(BigInteger.valueOf(1_000_000_000L))
                    .divide(BigInteger.valueOf(rate));
            assertThat(schedule.offsetNanos(id)).as("event %d", id).isEqualTo(exact.longValueExact());
            assertThat(schedule.offsetMillis(id)).isEqualTo(
                    BigInteger.valueOf(id).multiply(BigInteger.valueOf(1_000)).divide(BigInteger.valueOf(rate)).longValueExact());
        }
    }

    @Test
    void rateMustBeBetweenOneAndOnePerNanosecond() {
        assertThatThrownBy(() -> new EventSchedule(0)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new EventSchedule(1_000_000_001L)).hasMessageContaining("rate");
        assertThat(new EventSchedule(1_000_000_000L).offsetNanos(7)).isEqualTo(7);
    }
}
