package io.fournines.nexmark.driver.latency;

import io.fournines.nexmark.driver.CheckedFile;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;

/**
 * One latency distribution over time: values in microseconds, recorded from any number of threads
 * into an HdrHistogram {@link Recorder} (wait-free for recorders), and written as an interval log
 * (.hlog, {@link HistogramLogWriter} format, readable by {@code HistogramLogProcessor}) each time
 * {@link LatencyLogs} ticks. A write error (a full disk) is an IOException naming the file: a log
 * that lost intervals must fail its run, not pass for a complete one.
 *
 * <p>Warm-up: an interval that starts before the warm-up end is written with the tag
 * {@value #WARMUP_TAG}; measured intervals are untagged. HistogramLogProcessor and other readers
 * that ignore tags by default therefore see only the measurement, and the warm-up is still in the
 * file for anyone who wants to look at it ({@code -tag warmup}).
 *
 * <p>Values outside {@code [0, 1 hour]} are clamped into it and counted ({@link #clampedValues()}):
 * a negative latency means the sink's clock is behind the source's, and must be visible rather
 * than lost.
 */
public final class LatencyLog implements LatencyRecording {
    public static final long HIGHEST_TRACKABLE_MICROS = 3_600_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;
    public static final String WARMUP_TAG = "warmup";
    /** The Interval_Max column is written in milliseconds. */
    private static final double MICROS_PER_MILLI = 1_000.0;

    private final Path path;
    private final EpochClock clock;
    private final long warmupEndMicros;
    private final Recorder recorder = new Recorder(1, HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    private final CheckedFile file;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final LongAdder clamped = new LongAdder();
    private final long startMicros;
    /** Guarded by this: interval rolling is single-threaded, recording is not. */
    private Histogram interval;
    private long intervalStartMicros;
    private long valuesWritten;
    private boolean closed;

    LatencyLog(Path path, EpochClock clock, long startMicros, long warmupEndMicros) throws IOException {
        this.path = path;
        this.clock = clock;
        this.startMicros = startMicros;
        this.intervalStartMicros = clock.nowMicros();
        this.warmupEndMicros = warmupEndMicros;
        this.file = CheckedFile.create(path);
        this.out = new PrintStream(new BufferedOutputStream(file), false, StandardCharsets.US_ASCII);
        this.writer = new HistogramLogWriter(out);
        long startMillis = startMicros / 1_000;
        writer.outputLogFormatVersion();
        writer.outputComment("fournines latency in microseconds; intervals tagged " + WARMUP_TAG
                + " started before the warm-up ended at " + warmupEndMicros / 1_000 + " ms since epoch");
        writer.outputStartTime(startMillis);
        writer.setBaseTime(startMillis);
        writer.outputBaseTime(startMillis);
        writer.outputLegend();
        out.flush();
        file.check();
    }

    /** Records one latency. Thread-safe and wait-free. */
    @Override
    public void recordMicros(long latencyMicros) {
        long value = latencyMicros;
        if (value < 0 || value > HIGHEST_TRACKABLE_MICROS) {
            clamped.increment();
            value = value < 0 ? 0 : HIGHEST_TRACKABLE_MICROS;
        }
        recorder.recordValue(value);
    }

    /** Records now minus {@code epochMillis}: a result's latency against its scheduled time or window end. */
    public void recordSince(long epochMillis) {
        recordMicros(clock.nowMicros() - epochMillis * 1_000);
    }

    /** Values that fell outside {@code [0, HIGHEST_TRACKABLE_MICROS]} and were clamped. */
    public long clampedValues() {
        return clamped.sum();
    }

    /** A copy of the interval written last, or null before the first: for live progress reports. */
    public synchronized Histogram lastInterval() {
        return interval == null ? null : interval.copy();
    }

    /** Writes what was recorded since the previous interval as an interval ending now; a write error names the file. */
    synchronized void writeInterval() throws IOException {
        if (closed) {
            return;
        }
        long nowMicros = clock.nowMicros();
        interval = recorder.getIntervalHistogram(interval);
        interval.setStartTimeStamp(intervalStartMicros / 1_000);
        interval.setEndTimeStamp(nowMicros / 1_000);
        interval.setTag(intervalStartMicros < warmupEndMicros ? WARMUP_TAG : null);
        writer.outputIntervalHistogram(
                secondsSinceStart(intervalStartMicros), secondsSinceStart(nowMicros), interval, MICROS_PER_MILLI);
        // Flushing every interval bounds what a crash can lose to one interval.
        out.flush();
        intervalStartMicros = nowMicros;
        file.check();
        valuesWritten += interval.getTotalCount();
    }

    /**
     * Values in the intervals written so far: member.json records it, so a reader can tell a log
     * that lost intervals after it was written (a cut copy, a failed merge) from a complete one.
     */
    synchronized long valuesWritten() {
        return valuesWritten;
    }

    Path path() {
        return path;
    }

    /** Writes the last interval and closes the file; later values are not written. */
    synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        writeInterval();
        closed = true;
        writer.close();
        file.check();
    }

    private double secondsSinceStart(long micros) {
        return (micros - startMicros) / 1e6;
    }
}
