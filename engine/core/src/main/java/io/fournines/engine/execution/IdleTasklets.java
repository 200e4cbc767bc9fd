package io.fournines.engine.execution;

import io.fournines.engine.core.AbstractProcessor;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * A worker's round over tasklets that have nothing to do: each checks its empty input queue and
 * returns. What a worker spends per wake-up, so it sets the price of idling; public so the
 * engine's benchmarks can time it while the tasklet classes stay internal.
 */
public final class IdleTasklets {

    private final ProcessorTasklet[] round;

    private static final class NeverFedP extends AbstractProcessor {
    }

    @SuppressWarnings("unchecked")
    public IdleTasklets(int tasklets) throws Exception {
        round = new ProcessorTasklet[tasklets];
        JobExecution execution = new JobExecution();
        for (int i = 0; i < tasklets; i++) {
            OneToOneConcurrentArrayQueue<Object>[] input = new OneToOneConcurrentArrayQueue[] {new OneToOneConcurrentArrayQueue<>(1024)};
            ProcessorContext context = new ProcessorContext("idle", i, tasklets, execution.metrics(), new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT), null);
            round[i] = new ProcessorTasklet(new NeverFedP(), context, new OutboxImpl(new OutboundCollector[0], 2048),
                    new InboundStream[] {new InboundStream(0, 0, input)}, execution, new WorkerParker[0], new WorkerParker[0],
                    new TaskletSnapshots(execution.snapshots(), context, new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT)), TaskletBatches.NONE);
            round[i].init();
        }
    }

    /** One round over every tasklet; true if any made progress (none should). */
    public boolean callAll() {
        boolean progress = false;
        for (ProcessorTasklet t : round) {
            progress |= t.call() == ProgressState.MADE_PROGRESS;
        }
        return progress;
    }
}
