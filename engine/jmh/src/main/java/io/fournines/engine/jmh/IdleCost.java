package io.fournines.engine.jmh;

import com.sun.management.OperatingSystemMXBean;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import org.HdrHistogram.Recorder;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * What idling costs and what it does to latency: runs a per-event job (generator, map, sink that
 * records latency from each event's scheduled time) at a given rate and prints the CPU the engine's
 * worker threads and the whole process used, as a share of one core, with the latency percentiles.
 *
 * <pre>java -cp engine-benchmarks.jar io.fournines.engine.jmh.IdleCost [rate] [seconds] [idleMinMicros idleMaxMicros]</pre>
 *
 * Not a JMH benchmark: the quantity is CPU per wall second of a running job, not time per operation.
 */
public final class IdleCost {

    private IdleCost() {
    }

    public static void main(String[] args) throws Exception {
        double rate = args.length > 0 ? Double.parseDouble(args[0]) : 1_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        ExecutionConfig config = ExecutionConfig.defaults();
        if (args.length > 3) {
            config = config.withIdlePark(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[2])), TimeUnit.MICROSECONDS.toNanos(Long.parseLong(args[3])));
        }
        Recorder latencyMicros = new Recorder(3);
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(rate, (seq, scheduledEpochNanos) -> new long[] {seq, scheduledEpochNanos}))
         .withoutTimestamps()
         .map(event -> event)
         .writeTo(Sinks.forEach("latency", (long[] event) -> latencyMicros.recordValue(Math.max(0, (epochNanos() - event[1]) / 1_000))));

        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (Engine engine = Engine.start(config)) {
            Job job = engine.newJob(p);
            TimeUnit.SECONDS.sleep(3);
            latencyMicros.getIntervalHistogram();
            long cpuStart = os.getProcessCpuTime();
            long workersStart = workerCpuNanos();
            long wallStart = System.nanoTime();
            TimeUnit.SECONDS.sleep(seconds);
            long cpu = os.getProcessCpuTime() - cpuStart;
            long workers = workerCpuNanos() - workersStart;
            long wall = System.nanoTime() - wallStart;
            var histogram = latencyMicros.getIntervalHistogram();
            job.cancel();
            System.out.printf("rate %.0f events/s, %d workers, idle park %d..%d us, %d s measured%n", rate, config.cooperativeThreads(),
                    config.idleMinParkNanos() / 1_000, config.idleMaxParkNanos() / 1_000, seconds);
            System.out.printf("CPU, as a share of one core: engine workers %.2f %%, whole process %.2f %%%n", 100.0 * workers / wall, 100.0 * cpu / wall);
            System.out.printf("latency from scheduled time (us): p50 %d  p99 %d  p99.99 %d  max %d  (%d events)%n",
                    histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.99),
                    histogram.getMaxValue(), histogram.getTotalCount());
        }
    }

    /** CPU time of the engine's worker threads: what the engine itself spends, without JIT and GC threads. */
    private static long workerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("fournines-")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
