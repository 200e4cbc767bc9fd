package io.fournines.engine.execution;

import io.fournines.engine.core.AbstractProcessor;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
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
 * (In the engine's package: the tasklet classes are internal.)
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

    private ProcessorTasklet[] round;

    static final class NeverFedP extends AbstractProcessor {
    }

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() throws Exception {
        round = new ProcessorTasklet[tasklets];
        JobExecution execution = new JobExecution();
        for (int i = 0; i < tasklets; i++) {
            OneToOneConcurrentArrayQueue<Object>[] input = new OneToOneConcurrentArrayQueue[] {new OneToOneConcurrentArrayQueue<>(1024)};
            ProcessorContext context = new ProcessorContext("idle", i, tasklets, execution.metrics(), new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT));
            round[i] = new ProcessorTasklet(new NeverFedP(), context, new OutboxImpl(new OutboundCollector[0], 2048),
                    new InboundStream[] {new InboundStream(0, 0, input)}, execution, new WorkerParker[0], new WorkerParker[0],
                    new TaskletSnapshots(execution.snapshots(), context, new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT)));
            round[i].init();
        }
    }

    @Benchmark
    public boolean roundOverIdleTasklets() {
        boolean progress = false;
        for (ProcessorTasklet t : round) {
            progress |= t.call() == ProgressState.MADE_PROGRESS;
        }
        return progress;
    }
}
