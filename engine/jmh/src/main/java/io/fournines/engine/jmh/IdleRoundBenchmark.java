package io.fournines.engine.jmh;

import io.fournines.engine.execution.IdleTasklets;
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

import java.util.concurrent.TimeUnit;

/**
 * The cost of one worker round over tasklets that have nothing to do: each checks its empty input
 * queue and returns. This is what a worker spends per wake-up, so it sets the price of idling.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IdleRoundBenchmark {

    @Param({"10", "100"})
    public int tasklets;

    private IdleTasklets round;

    @Setup
    public void setUp() throws Exception {
        round = new IdleTasklets(tasklets);
    }

    @Benchmark
    public boolean roundOverIdleTasklets() {
        return round.callAll();
    }
}
