package io.fournines.nexmark.driver;

import io.fournines.nexmark.driver.latency.EpochClock;
import io.fournines.nexmark.driver.latency.LatencyRecording;
import io.fournines.nexmark.driver.latency.WindowLatencyRecorder;
import io.fournines.nexmark.query.WindowedResult;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The state one run shares between the driver and the engine's sources and sinks in this JVM.
 * Jet and Flink serialize a job's functions and build them again inside the engine, so a source or
 * sink cannot hold the recorder itself: it carries the run's id and looks the run up here.
 *
 * <p>Sources report what they generate and how far behind they are; sinks hand over results
 * (latency recorded against the scheduled time or the window end) and watermarks (window
 * completion, once every sink instance has passed a window's end).
 */
public final class RunContext {

    private static final int MAX_SOURCE_INSTANCES = 1024;
    private static final Map<String, RunContext> RUNS = new ConcurrentHashMap<>();

    private final String id;
    private final EpochClock clock;
    private final LatencyRecording perEvent;
    private final WindowLatencyRecorder windows;
    private final Consumer<Object> results;
    private final AtomicReference<long[]> origin = new AtomicReference<>();
    private final LongAdder generated = new LongAdder();
    private final PerThreadCount processed = new PerThreadCount();
    private final LongAdder late = new LongAdder();
    private final AtomicLongArray lagNanos = new AtomicLongArray(MAX_SOURCE_INSTANCES);
    private final AtomicReference<SinkWatermarks> sinkWatermarks = new AtomicReference<>();
    private final AtomicLong completeUpTo = new AtomicLong(SinkWatermarks.NONE);
    private final LongAdder resultsAfterCompletion = new LongAdder();
    private final PrintStream out;
    /** Set by an engine whose sources count for themselves; null: the {@link PacedSlice}s' counts. */
    private volatile LongSupplier ownGenerated;
    private volatile LongSupplier ownBehindNanos;

    private RunContext(String id, EpochClock clock, LatencyRecording perEvent, WindowLatencyRecorder windows, Consumer<Object> results,
                       PrintStream out) {
        this.id = id;
        this.clock = clock;
        this.perEvent = perEvent;
        this.windows = windows;
        this.results = results;
        this.out = out;
    }

    /**
     * A measured run: per-event latency into {@code perEvent}, or window latency into {@code windows};
     * {@code out} is the member's progress channel.
     */
    public static RunContext measuring(String id, EpochClock clock, LatencyRecording perEvent, WindowLatencyRecorder windows, PrintStream out) {
        return register(new RunContext(id, clock, perEvent, windows, null, out));
    }

    /**
     * A run whose results go to {@code results} (a bounded test input); nothing is recorded. The
     * schedule starts at {@code startEpochNanos}: in the past, every event is due at once and the
     * run takes no longer than the engine needs.
     */
    public static RunContext collecting(String id, Consumer<Object> results, long startEpochNanos) {
        RunContext run = new RunContext(id, EpochClock.system(), null, null, results, null);
        run.origin.set(new long[] {System.nanoTime() - (run.clock.nowMicros() * 1_000 - startEpochNanos), startEpochNanos});
        return register(run);
    }

    private static RunContext register(RunContext run) {
        if (RUNS.putIfAbsent(run.id, run) != null) {
            throw new IllegalStateException("a run with id " + run.id + " is already registered");
        }
        return run;
    }

    /** The run of a job's source or sink; fails if the run has ended. */
    public static RunContext of(String id) {
        RunContext run = RUNS.get(id);
        if (run == null) {
            throw new IllegalStateException("no run " + id + " in this JVM (ended, or the job runs in another process)");
        }
        return run;
    }

    /** Forgets the run; its sources and sinks must have stopped. */
    public void unregister() {
        RUNS.remove(id, this);
    }

    public String id() {
        return id;
    }

    /**
     * t0 of the schedule as {nanoTime, epoch nanoseconds at that instant}: fixed by the first source
     * instance to ask, so a slow engine start-up does not count as lateness, and read from the
     * recorder's clock, so scheduled times and sink times share one clock.
     */
    public long[] origin() {
        long[] o = origin.get();
        if (o == null) {
            long nanos = System.nanoTime();
            origin.compareAndSet(null, new long[] {nanos, clock.nowMicros() * 1_000});
            o = origin.get();
        }
        return o;
    }

    void generated(int events) {
        generated.add(events);
    }

    void behind(int sourceInstance, long behindNanos) {
        lagNanos.lazySet(sourceInstance, behindNanos);
    }

    /** Called by a filter fused into the query's first stage for every event that reaches it. */
    public void processed() {
        processed.increment();
    }

    /** Events a window operator dropped as late (behind the watermark). */
    public void lateEvents(long count) {
        late.add(count);
    }

    /**
     * For an engine whose own sources count what they emit and how far behind schedule they are
     * (the reference engine's generator, a Kafka consumer): the driver reads these instead.
     */
    public void measureLoadWith(LongSupplier generated, LongSupplier behindNanos) {
        ownGenerated = generated;
        ownBehindNanos = behindNanos;
    }

    /** A line on the member's progress channel (a JSON object with a {@code type}), e.g. a restart after a lost member. */
    public void announce(String jsonLine) {
        if (out != null) {
            synchronized (out) {
                out.println(jsonLine);
                out.flush();
            }
        }
    }

    public long generatedEvents() {
        LongSupplier own = ownGenerated;
        return own != null ? own.getAsLong() : generated.sum();
    }

    public long processedEvents() {
        return processed.sum();
    }

    public long lateEvents() {
        return late.sum();
    }

    /** The worst source instance's distance behind its schedule; 0 when on time. */
    public long behindNanos() {
        LongSupplier own = ownBehindNanos;
        if (own != null) {
            return own.getAsLong();
        }
        long worst = 0;
        for (int i = 0; i < lagNanos.length(); i++) {
            worst = Math.max(worst, lagNanos.get(i));
        }
        return worst;
    }

    /** A per-event result is at the sink now: latency against its event's scheduled time. */
    public void perEventResult(Object result, long scheduledEpochNanos) {
        if (perEvent != null) {
            perEvent.recordMicros(clock.nowMicros() - scheduledEpochNanos / 1_000);
        }
        if (results != null) {
            results.accept(result);
        }
    }

    /** A window result is at the sink now: its window's first result records latency from its end. */
    public void windowResult(WindowedResult result) {
        windowResult(result, result.end());
    }

    /** A result of the window ending at {@code windowEnd} is at the sink now (for results that do not carry their window). */
    public void windowResult(Object result, long windowEnd) {
        if (windows != null) {
            windows.resultEmitted(windowEnd);
        }
        if (results != null) {
            if (windowEnd <= completeUpTo.get()) {
                resultsAfterCompletion.increment();
            }
            results.accept(result);
        }
    }

    /** In a collecting run: window results that came after their window was complete (a measured run's recorder counts them); should be 0. */
    public long windowResultsAfterCompletion() {
        return resultsAfterCompletion.sum();
    }

    /**
     * Sink instance {@code index} of {@code instances} has passed {@code watermark}, for an engine
     * that runs one execution per run (its sinks share the run's {@link SinkWatermarks}).
     */
    public void sinkWatermark(int index, int instances, long watermark) {
        sinkWatermark(runSinks(instances), index, watermark);
    }

    /** Sink instance {@code index} of {@code instances} has no more input (see {@link #sinkWatermark(int, int, long)}). */
    public void sinkEnded(int index, int instances) {
        sinkEnded(runSinks(instances), index);
    }

    /** Instance {@code index} of one execution's window sinks has passed {@code watermark}. */
    public void sinkWatermark(SinkWatermarks sinks, int index, long watermark) {
        windowsCompleteUpTo(sinks.advance(index, watermark));
    }

    /** Instance {@code index} of one execution's window sinks has no more input. */
    public void sinkEnded(SinkWatermarks sinks, int index) {
        windowsCompleteUpTo(sinks.ended(index));
    }

    private SinkWatermarks runSinks(int instances) {
        return sinkWatermarks.updateAndGet(w -> w != null ? w : new SinkWatermarks(instances));
    }

    private void windowsCompleteUpTo(long windowEnd) {
        if (windowEnd == SinkWatermarks.NONE || windowEnd == SinkWatermarks.ALL_ENDED) {
            return;
        }
        completeUpTo.accumulateAndGet(windowEnd, Math::max);
        if (windows != null) {
            windows.windowsCompleteUpTo(windowEnd);
        }
    }

    /** Every window ending at or before this is complete at the sinks; {@link SinkWatermarks#NONE} before any. */
    public long windowsCompleteUpTo() {
        return completeUpTo.get();
    }
}
