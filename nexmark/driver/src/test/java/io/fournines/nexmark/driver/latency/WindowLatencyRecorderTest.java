package io.fournines.nexmark.driver.latency;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WindowLatencyRecorderTest {
    private static final long WINDOW_END_MILLIS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void firstResultAndLastResultOfAWindowGoToTheirOwnLogs() throws Exception {
        ManualClock clock = new ManualClock(WINDOW_END_MILLIS * 1_000);
        LatencyLogs logs = new LatencyLogs(clock, 0);
        Path firstFile = dir.resolve("window-first.hlog");
        Path lastFile = dir.resolve("window-last.hlog");
        WindowLatencyRecorder windows = new WindowLatencyRecorder(logs.open(firstFile), logs.open(lastFile), clock);

        long next = WINDOW_END_MILLIS + 10;
        clock.advanceMillis(2);
        windows.resultEmitted(WINDOW_END_MILLIS);        // first of window 1: 2 ms
        clock.advanceMillis(3);
        windows.resultEmitted(WINDOW_END_MILLIS);        // 5 ms
        clock.advanceMillis(6);
        windows.resultEmitted(next);                     // first of window 2: 11 - 10 = 1 ms
        windows.resultEmitted(WINDOW_END_MILLIS);        // last of window 1: 11 ms
        clock.advanceMillis(1);
        windows.windowsCompleteUpTo(WINDOW_END_MILLIS);
        windows.resultEmitted(WINDOW_END_MILLIS);        // too late: not recorded
        windows.windowsCompleteUpTo(next);               // last of window 2: 1 ms
        logs.close();

        Histogram first = HlogContents.intervals(firstFile).get(0);
        Histogram last = HlogContents.intervals(lastFile).get(0);
        assertThat(first.getTotalCount()).isEqualTo(2);
        assertThat(first.getCountAtValue(2_000)).isEqualTo(1);
        assertThat(first.getCountAtValue(1_000)).isEqualTo(1);
        assertThat(last.getTotalCount()).isEqualTo(2);
        assertThat(last.getCountAtValue(11_000)).isEqualTo(1);
        assertThat(last.getCountAtValue(1_000)).isEqualTo(1);
        assertThat(windows.lateResults()).isEqualTo(1);
    }

    @Test
    void eachWindowsFirstResultIsRecordedOnceWhenManyThreadsEmit() throws Exception {
        ManualClock clock = new ManualClock(WINDOW_END_MILLIS * 1_000);
        Path firstFile = dir.resolve("first.hlog");
        Path lastFile = dir.resolve("last.hlog");
        int windowCount = 2_000;
        try (LatencyLogs logs = new LatencyLogs(clock, 0)) {
            WindowLatencyRecorder windows = new WindowLatencyRecorder(logs.open(firstFile), logs.open(lastFile), clock);
            List<Thread> sinks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread sink = new Thread(() -> {
                    for (int w = 0; w < windowCount; w++) {
                        windows.resultEmitted(WINDOW_END_MILLIS - w);
                    }
                });
                sink.start();
                sinks.add(sink);
            }
            for (Thread sink : sinks) {
                sink.join();
            }
            windows.windowsCompleteUpTo(WINDOW_END_MILLIS);
        }
        assertThat(HlogContents.intervals(firstFile).get(0).getTotalCount()).isEqualTo(windowCount);
        assertThat(HlogContents.intervals(lastFile).get(0).getTotalCount()).isEqualTo(windowCount);
    }
}
