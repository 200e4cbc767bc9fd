package io.fournines.engine.processor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When an idle worker is woken for a generator's items: not per item, but once a span of them is
 * due (more than one item at low rates), never later than the cap, never past the last item.
 */
class GeneratorSourcePWakeupTest {

    @Test
    void atAHighRateTheWorkerWakesOnceASpanOfItemsIsDue() throws Exception {
        assertThat(waitForFirstWakeup(1_000_000, Long.MAX_VALUE)).isEqualTo(GeneratorSourceP.WAKEUP_SPAN_NANOS);
    }

    @Test
    void atALowRateItWakesOnceSeveralItemsAreDueButNoLaterThanTheCap() throws Exception {
        assertThat(waitForFirstWakeup(1_000, Long.MAX_VALUE)).isEqualTo((GeneratorSourceP.WAKEUP_BATCH - 1) * 1_000_000L);
        assertThat(waitForFirstWakeup(1, Long.MAX_VALUE)).isEqualTo(GeneratorSourceP.MAX_WAKEUP_DELAY_NANOS);
    }

    @Test
    void itDoesNotWaitPastTheLastItem() throws Exception {
        assertThat(waitForFirstWakeup(1_000_000, 3)).isEqualTo(2_000);
    }

    /**
     * How long after item 0 is due a single instance wants its worker woken. The schedule starts an
     * hour from now, so no item is due yet and item 0 is the next.
     */
    private static long waitForFirstWakeup(double itemsPerSecond, long maxItems) throws Exception {
        GeneratorSourceP.SharedStart start = GeneratorSourceP.SharedStart.at(System.currentTimeMillis() * 1_000_000L + 3_600_000_000_000L);
        GeneratorSourceP<Long> source = new GeneratorSourceP<>(itemsPerSecond, maxItems, (sequence, scheduled) -> sequence, null,
                start, new ScheduleMonitor());
        source.init(new SlidingWindowPTest.ListOutbox(), new SlidingWindowPTest.SingleInstance());
        long firstDue = start.get()[0];
        return source.nextDeadlineNanos() - firstDue;
    }
}
