package io.fournines.nexmark.driver.latency;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

class LatencyLogTest {
    private static final long START_MICROS = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void valuesRecordedFromManyThreadsComeBackFromTheLog() throws Exception {
        Path file = dir.resolve("latency.hlog");
        int threads = 4;
        int perThread = 25_000;
        LatencyLogs logs = LatencyLogs.start(0);
        try (logs) {
            LatencyLog log = logs.open(file);
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    for (int v = 1; v <= perThread; v++) {
                        log.recordMicros(v);
                    }
                });
                worker.start();
                workers.add(worker);
            }
            go.countDown();
            for (Thread worker : workers) {
                worker.join();
            }
        }
        Histogram total = new Histogram(LatencyLog.HIGHEST_TRACKABLE_MICROS, LatencyLog.SIGNIFICANT_DIGITS);
        HlogContents.intervals(file).forEach(total::add);
        assertThat(total.getTotalCount()).isEqualTo((long) threads * perThread);
        assertThat(logs.valuesWritten(file.getParent())).containsExactly(entry("latency.hlog", (long) threads * perThread));
        assertThat(total.getMinValue()).isEqualTo(1);
        assertThat((double) total.getValueAtPercentile(50)).isCloseTo(12_500, within(12.5 * 1.5));
        assertThat(total.getMaxValue()).isEqualTo(total.highestEquivalentValue(25_000));
    }

    @Test
    void intervalsThatStartDuringWarmUpAreTaggedAndLaterOnesAreNot() throws Exception {
        ManualClock clock = new ManualClock(START_MICROS);
        Path file = dir.resolve("warm.hlog");
        LatencyLogs logs = new LatencyLogs(clock, 2_000);
        LatencyLog log = logs.open(file);
        for (int second = 0; second < 4; second++) {
            clock.advanceMillis(500);
            log.recordMicros(100 + second);
            clock.advanceMillis(500);
            logs.writeIntervals();
        }
        logs.close();

        List<Histogram> intervals = HlogContents.intervals(file);
        // Four ticks, plus the empty final interval written on close.
        assertThat(intervals).extracting(Histogram::getTag)
                .containsExactly(LatencyLog.WARMUP_TAG, LatencyLog.WARMUP_TAG, null, null, null);
        assertThat(intervals).extracting(h -> h.getTotalCount()).containsExactly(1L, 1L, 1L, 1L, 0L);
        assertThat(intervals.get(2).getMaxValue()).isEqualTo(102);
        // Interval timestamps are absolute epoch millis after reading, one second apart.
        assertThat(intervals.get(0).getStartTimeStamp()).isEqualTo(START_MICROS / 1_000);
        assertThat(intervals.get(3).getEndTimeStamp()).isEqualTo(START_MICROS / 1_000 + 4_000);
    }

    @Test
    void latencySinceAnEpochTimeUsesTheClockAndOutOfRangeValuesAreClampedAndCounted() throws Exception {
        ManualClock clock = new ManualClock(START_MICROS);
        Path file = dir.resolve("since.hlog");
        LatencyLogs logs = new LatencyLogs(clock, 0);
        LatencyLog log = logs.open(file);
        log.recordSince(START_MICROS / 1_000 - 7);
        log.recordMicros(-5);
        log.recordMicros(LatencyLog.HIGHEST_TRACKABLE_MICROS + 1);
        logs.close();

        Histogram h = HlogContents.intervals(file).get(0);
        assertThat(h.getTotalCount()).isEqualTo(3);
        assertThat(h.getCountAtValue(7_000)).isEqualTo(1);
        assertThat(h.getCountAtValue(0)).isEqualTo(1);
        assertThat(h.getMaxValue()).isEqualTo(h.highestEquivalentValue(LatencyLog.HIGHEST_TRACKABLE_MICROS));
        assertThat(log.clampedValues()).isEqualTo(2);
    }

    @Test
    void hdrHistogramsLogProcessorReadsTheLogAndSkipsWarmUp() throws Exception {
        ManualClock clock = new ManualClock(START_MICROS);
        Path file = dir.resolve("processed.hlog");
        LatencyLogs logs = new LatencyLogs(clock, 1_000);
        LatencyLog log = logs.open(file);
        log.recordMicros(999_000);
        clock.advanceMillis(1_000);
        logs.writeIntervals();
        for (int i = 0; i < 1_000; i++) {
            log.recordMicros(2_000);
        }
        clock.advanceMillis(1_000);
        logs.close();

        Path output = dir.resolve("processed");
        new HistogramLogProcessor(new String[] {
            "-i", file.toString(), "-o", output.toString(), "-outputValueUnitRatio", "1000"}).run();
        String distribution = Files.readString(dir.resolve("processed.hgrm"));
        // Only the untagged second counts: 1 000 values of 2 ms, none of the warm-up's 999 ms.
        assertThat(distribution).contains("#[Max     =        2.000, Total count    =         1000]");
    }
}
