package io.fournines.engine.jmh;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Items per second through one SPSC queue (capacity 1024, as on an edge) between two threads, used
 * the way tasklets use it: a producer thread offers one item at a time as fast as it can, and the
 * measured thread drains everything available per call until it has received a batch. The score
 * is items handed over per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QueueHandoffBenchmark {

    private static final int BATCH = 1_000_000;
    private static final Long ITEM = 42L;

    private final OneToOneConcurrentArrayQueue<Object> queue = new OneToOneConcurrentArrayQueue<>(1024);
    private volatile boolean running;
    private Thread producer;
    private long received;

    @Setup
    public void startProducer() {
        running = true;
        producer = new Thread(() -> {
            while (running) {
                queue.offer(ITEM);
            }
        }, "producer");
        producer.setDaemon(true);
        producer.start();
    }

    @TearDown
    public void stopProducer() throws InterruptedException {
        running = false;
        producer.join();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long consume() {
        long target = received + BATCH;
        while (received < target) {
            received += queue.drain(item -> { }, 1024);
        }
        return received;
    }
}
