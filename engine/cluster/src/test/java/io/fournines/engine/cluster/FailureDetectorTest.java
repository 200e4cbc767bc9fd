package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FailureDetectorTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aMemberSilentForTheFailureTimeoutIsLost() {
        FailureDetector d = new FailureDetector(2, 100, 1_000, 0);
        d.heard(1, 0);
        assertThat(d.silentPastTimeout(1, 1_000 * MS)).isZero();
        assertThat(d.silentPastTimeout(1, 1_001 * MS)).isEqualTo(1_001 * MS);
        d.heard(1, 900 * MS);
        assertThat(d.silentPastTimeout(1, 1_001 * MS)).isZero();
    }

    @Test
    void aCheckThatCameLateJudgesNoSilenceTheNextOnTimeOneDoes() {
        FailureDetector d = new FailureDetector(2, 100, 1_000, 0);
        d.heard(1, 0);
        assertThat(d.onTime(100 * MS)).isTrue();
        assertThat(d.onTime(1_500 * MS)).as("1.4 s after the previous check: the I/O thread was starved").isFalse();
        assertThat(d.onTime(1_600 * MS)).as("one interval later, after it read its sockets").isTrue();
        assertThat(d.onTime(3_000 * MS)).isFalse();
        assertThat(d.onTime(4_400 * MS)).as("late again, but judgement is put off once only").isTrue();
    }

    @Test
    void aPauseOfAboutTheFailureTimeoutMeansThisMemberWasDroppedAndCountsOnce() {
        FailureDetector d = new FailureDetector(2, 100, 1_000, 0);
        d.ticked(100 * MS);
        assertThat(d.pausedPastThreshold(900 * MS)).as("800 ms: within timeout - 2 heartbeats").isZero();
        assertThat(d.pausedPastThreshold(901 * MS)).isEqualTo(801 * MS);
        assertThat(d.pausedPastThreshold(902 * MS)).as("the pause is over once noticed").isZero();
    }

    @Test
    void withAShortTimeoutThePauseThresholdIsHalfOfIt() {
        FailureDetector d = new FailureDetector(2, 200, 600, 0);
        assertThat(d.pausedPastThreshold(300 * MS)).isZero();
        assertThat(d.pausedPastThreshold(601 * MS)).isEqualTo(601 * MS);
    }

    @Test
    void aBusyIoThreadIsNoPauseWhileTheSentinelTicks() {
        FailureDetector d = new FailureDetector(2, 100, 1_000, 0);
        for (long t = 100; t <= 1_900; t += 100) {
            d.ticked(t * MS);  // the I/O thread, busy, checks only at 2 000 ms
        }
        assertThat(d.pausedPastThreshold(2_000 * MS)).isZero();
    }

    @Test
    void aPauseTheSentinelSawIsReportedOnceEvenWhenItTickedFirst() {
        FailureDetector d = new FailureDetector(2, 100, 1_000, 0);
        d.ticked(100 * MS);
        d.ticked(1_600 * MS);  // SIGSTOP for 1.5 s: on waking, the sentinel ran before the I/O thread
        d.ticked(1_601 * MS);  // a fixed-rate task catching up
        assertThat(d.pausedPastThreshold(1_610 * MS)).isEqualTo(1_500 * MS);
        assertThat(d.pausedPastThreshold(1_620 * MS)).isZero();
    }
}
