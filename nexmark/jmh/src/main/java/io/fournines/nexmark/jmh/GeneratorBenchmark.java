package io.fournines.nexmark.jmh;

import io.fournines.nexmark.codec.BinaryEventCodec;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Events per second one thread generates (the target: at least 10 M per core, so the
 * generator is never the bottleneck). Each call makes the next event of the global sequence, with
 * the real 1:3:46 mix, so persons' and auctions' strings are in the cost. Run with {@code -prof gc}
 * for bytes per event.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GeneratorBenchmark {

    /** 0: Beam's growing id space; 10 000: the paper's bounded keys (one more division per id). */
    @Param({"0", "10000"})
    long keys;

    /** Beam's padded sizes cost a string per bid; off is the harness default. */
    @Param({"false", "true"})
    boolean extraPadding;

    private NexmarkGenerator generator;
    private final ByteBuffer buffer = ByteBuffer.allocate(4096);
    private long eventId;

    @Setup
    public void setUp() {
        generator = new NexmarkGenerator(GeneratorConfig.defaults(1).withRate(1_000_000).withKeys(keys)
                .withExtraPadding(extraPadding));
    }

    @Benchmark
    public Event event() {
        return generator.event(eventId++);
    }

    /** What a load generator writing to Kafka pays: generate, then encode. */
    @Benchmark
    public int eventEncodedBinary() {
        buffer.clear();
        BinaryEventCodec.encode(generator.event(eventId++), buffer);
        return buffer.position();
    }
}
