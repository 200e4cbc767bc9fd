package io.fournines.engine.jmh;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StageWithKeyAndWindow;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The paper's windowed count: 10 000 keys, a 10 s window sliding by 10 ms, on ONE cooperative
 * thread, fed by the in-process generator running flat out. Event time advances as if events came
 * at 5 M/s (50 000 per 10 ms frame), whatever the real speed, so the window state and its output
 * (10 000 results per slide) are those of the target rate.
 *
 * <p>One job runs for the whole trial; each invocation waits until the generator has emitted
 * another {@link #BATCH} events, so the score is events per second in steady state and, with
 * -prof gc, the allocation is per event. The warm-up iterations cover the first full window
 * (50 M events), when the window state is being built.
 *
 * <p>The generator makes one 24-byte event object per event (its key comes from a pre-built table,
 * as a real source would intern it); everything else allocated is the engine's.
 *
 * <p>{@code output} picks what follows the count: {@code perKey}, each key's result to the sink (the
 * paper's); or Q5's shape, the key with the highest count per window, either as
 * {@code maxOfPerKeyResults} (each window's per-key results through a global tumbling window one
 * slide long, Q5's plan until 2026-11-28) or as {@code maxOverKeys} (the keys' counts handed as
 * primitives to an aggregate over the keys: no object per key and slide). {@code eventsPerMilli=625}
 * is Q5's 625 000 events/s, where the per-(key, slide) output is most of the bytes per event.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 15)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class WindowedCountBenchmark {

    static final int BATCH = 1_000_000;
    static final int KEYS = 10_000;

    @Param({"5000"})
    public long eventsPerMilli;

    @Param({"perKey", "maxOfPerKeyResults", "maxOverKeys"})
    public String output;

    record Event(Long key, long time) {
    }

    private Engine engine;
    private Job job;
    private final ScheduleMonitor monitor = new ScheduleMonitor();
    private final LongAdder results = new LongAdder();
    private long waitedFor;

    @Setup
    public void startJob() {
        Long[] keys = new Long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = (long) i;
        }
        long perMilli = eventsPerMilli;
        Pipeline p = Pipeline.create();
        var events = p.readFrom(Sources.generator(1e12, Long.MAX_VALUE, (seq, scheduled) -> new Event(keys[(int) (seq % KEYS)], seq / perMilli), monitor))
                .withTimestamps(Event::time, 0);
        WindowDefinition window = WindowDefinition.sliding(10_000, 10);
        StageWithKeyAndWindow<Event, Long> byLongKey = events.groupingLongKey(Event::key).window(window);
        switch (output) {
            case "perKey" -> events.groupingKey(Event::key).window(window).aggregate(AggregateOperations.counting())
                    .writeTo(Sinks.forEach("count", r -> results.increment()));
            case "maxOfPerKeyResults" -> byLongKey.aggregate(AggregateOperations.counting())
                    .window(WindowDefinition.tumbling(window.slide()))
                    .aggregate(AggregateOperations.maxBy(Comparator.comparingLong((KeyedWindowResult<Long, Long> r) -> r.result())))
                    .writeTo(Sinks.forEach("max", r -> results.increment()));
            case "maxOverKeys" -> byLongKey.aggregateSumsOverKeys(e -> 1, maxOverKeys())
                    .writeTo(Sinks.forEach("max", r -> results.increment()));
            default -> throw new IllegalArgumentException("output " + output);
        }
        engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(1));
        job = engine.newJob(p);
    }

    /** The key with the highest count, as {max, key}; the first key offered on ties. */
    private static OverKeysOperation<long[], Long> maxOverKeys() {
        return new OverKeysOperation<>(() -> new long[] {Long.MIN_VALUE, 0}, WindowedCountBenchmark::offer,
                (max, other) -> offer(max, other[1], other[0]), max -> max[1]);
    }

    private static void offer(long[] max, long key, long count) {
        if (count > max[0]) {
            max[0] = count;
            max[1] = key;
        }
    }

    @TearDown
    public void stopJob() {
        job.cancel();
        engine.close();
        System.out.printf("%nevents %,d, window results %,d%n", monitor.emitted(), results.sum());
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long slidingCount() {
        waitedFor += BATCH;
        while (monitor.emitted() < waitedFor) {
            if (job.isDone()) {
                job.join();
            }
            LockSupport.parkNanos(100_000);
        }
        return waitedFor;
    }
}
