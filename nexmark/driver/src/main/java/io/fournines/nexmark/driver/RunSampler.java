package io.fournines.nexmark.driver;

import io.fournines.nexmark.driver.latency.LatencyLog;
import io.fournines.nexmark.driver.latency.LatencyLogs;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A member's once-a-second samples (scenarios/docs/member-contract.md), all from the same
 * instant: a row in {@code throughput.csv}, {@code cpu.csv}, {@code load.csv} and each
 * {@link SampledFile} (host.csv, where the host can say; vertices.csv and snapshots.csv, where the
 * engine can), and a progress line on stdout. Shared
 * by the reference member and the peer-engine members, so every engine is sampled alike.
 */
public final class RunSampler {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Events the source made so far and how far behind its schedule it is: the search's sustainability check reads it. */
    public static final String LOAD_HEADER = "time_s,generated,behind_ms";
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final long t0Nanos;
    private final double warmupSeconds;
    private final double targetRate;
    private final LatencyLog latency;
    private final CsvFile throughput;
    private final CsvFile cpu;
    private final CsvFile load;
    private final List<SampledFile> extras;
    private final PrintStream out;
    private final LongSupplier generated;
    private final LongSupplier processed;
    private final LongSupplier behindNanos;
    private long lastNanos;
    private long lastGenerated;
    private long lastProcessed;
    /** Events generated and time when the warm-up ended; -1 before. */
    private long generatedAtWarmupEnd = -1;
    private long warmupEndNanos;
    private long generatedAtEnd;
    private long endNanos;

    /**
     * @param generated   events the generator has sent so far
     * @param processed   events that reached the query's first stage so far
     * @param behindNanos how far the generator is behind its schedule now, ≥ 0
     * @param extras      the files sampled beside the contract's own series
     */
    public RunSampler(long t0Nanos, double warmupSeconds, double targetRate, LatencyLog latency, CsvFile throughput, CsvFile cpu,
                      CsvFile load, List<SampledFile> extras, PrintStream out, LongSupplier generated, LongSupplier processed,
                      LongSupplier behindNanos) {
        this.t0Nanos = t0Nanos;
        this.warmupSeconds = warmupSeconds;
        this.targetRate = targetRate;
        this.latency = latency;
        this.throughput = throughput;
        this.cpu = cpu;
        this.load = load;
        this.extras = extras;
        this.out = out;
        this.generated = generated;
        this.processed = processed;
        this.behindNanos = behindNanos;
        this.lastNanos = t0Nanos;
    }

    /**
     * Each second of the run until {@code endNanos}: one latency interval in every log of
     * {@code logs}, then one {@link #sample()}; returns early when {@code wake} opens (the job
     * ended, or a stop was asked for). A second missed (the JVM stalled) is skipped, not made up
     * back to back: that would write intervals of no length, which the .hlog format cannot hold.
     *
     * @return true when woken before the end
     */
    public boolean everySecondUntil(long endNanos, LatencyLogs logs, CountDownLatch wake) throws InterruptedException, IOException {
        // From the next whole second since t0: a member that joined late starts on the run's timeline.
        for (long tick = (System.nanoTime() - t0Nanos) / NANOS_PER_SECOND + 1; ; tick = Math.max(tick + 1, (System.nanoTime() - t0Nanos) / NANOS_PER_SECOND + 1)) {
            long due = Math.min(t0Nanos + tick * NANOS_PER_SECOND, endNanos);
            if (wake.await(due - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                return true;
            }
            logs.writeIntervals();
            sample();
            if (due >= endNanos) {
                return false;
            }
        }
    }

    /** One sample; an error writing a file fails it, naming the file. */
    public void sample() throws IOException {
        long now = System.nanoTime();
        // Processed first: every event is counted as generated before it can be processed, so the
        // generated count read after it is at least as high. Read the other way round, events made and
        // processed between the two reads would show more processed than generated.
        long processedNow = processed.getAsLong();
        long generatedNow = generated.getAsLong();
        double elapsed = (now - t0Nanos) / 1e9;
        double interval = Math.max((now - lastNanos) / 1e9, 1e-9);
        // An interval belongs to the warm-up if it started in it, as in the .hlog's tags.
        boolean warmup = (lastNanos - t0Nanos) / 1e9 < warmupSeconds - 1e-3;
        if (!warmup && generatedAtWarmupEnd < 0) {
            generatedAtWarmupEnd = lastGenerated;
            warmupEndNanos = lastNanos;
        }
        throughput.row("%.3f,%d,%.1f", elapsed, processedNow, (processedNow - lastProcessed) / interval);
        cpu.row("%.3f,%.3f", elapsed, OS.getProcessCpuTime() / 1e9);
        double behindMillis = behindNanos.getAsLong() / 1e6;
        load.row("%.3f,%d,%.3f", elapsed, generatedNow, behindMillis);
        for (SampledFile file : extras) {
            file.sample(t0Nanos, elapsed);
        }
        Histogram last = latency.lastInterval();
        boolean any = last != null && last.getTotalCount() > 0;
        out.printf(Locale.ROOT, "{\"type\":\"progress\",\"elapsed_s\":%.3f,\"phase\":\"%s\",\"target_rate\":%s,\"achieved_rate\":%.1f,"
                        + "\"p99_us\":%s,\"p9999_us\":%s,\"behind_ms\":%.3f}%n",
                elapsed, warmup ? "warmup" : "measure", number(targetRate), (generatedNow - lastGenerated) / interval,
                any ? Long.toString(last.getValueAtPercentile(99)) : "null",
                any ? Long.toString(last.getValueAtPercentile(99.99)) : "null",
                behindMillis);
        out.flush();
        lastNanos = now;
        lastGenerated = generatedNow;
        lastProcessed = processedNow;
        generatedAtEnd = generatedNow;
        endNanos = now;
    }

    /** Events/s the generator sent over the measurement (after the warm-up); 0 before it. */
    public double achievedRate() {
        if (generatedAtWarmupEnd < 0 || endNanos <= warmupEndNanos) {
            return 0;
        }
        return (generatedAtEnd - generatedAtWarmupEnd) / ((endNanos - warmupEndNanos) / 1e9);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
