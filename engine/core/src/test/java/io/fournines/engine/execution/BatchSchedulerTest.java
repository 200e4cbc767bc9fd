package io.fournines.engine.execution;

import io.fournines.engine.core.Clocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheduler alone, one part reporting by hand: how a tuned group size moves. */
class BatchSchedulerTest {

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    /** Each launch: {stage, through batch}. */
    private final BlockingQueue<long[]> launches = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    /**
     * Batches of 10 ms, a target of 500 ms: groups done at once grow by one (1, 2, 3, 4); a group
     * whose last batch is done 700 ms after its launch halves the next (2).
     */
    @Test
    void aTunedGroupGrowsByOneWhileItsBatchesAreInTimeAndHalvesAfterALateOne() throws Exception {
        BatchScheduler scheduler = new BatchScheduler(ExecutionModel.tuned(Duration.ofMillis(10), Duration.ofMillis(500)), Clocks.pair()[1], 1,
                (stage, through, firstEnd) -> launches.add(new long[] {stage, through}), thread, why -> { });
        scheduler.plan(1);
        scheduler.ready(0);
        long first = 0;
        List<Integer> sizes = new ArrayList<>();
        for (int group = 0; group < 5; group++) {
            long[] launch = launches.poll(10, TimeUnit.SECONDS);
            assertThat(launch).as("group %d launched", group).isNotNull();
            sizes.add((int) (launch[1] - first + 1));
            if (group == 3) {
                Thread.sleep(700);
            }
            scheduler.stageDone(0, 0, launch[1], nowMicros(), nowMicros());
            first = launch[1] + 1;
        }
        assertThat(sizes).containsExactly(1, 2, 3, 4, 2);
        List<Integer> rowSizes = new ArrayList<>();
        Thread.sleep(100);
        scheduler.drainFinished(t -> rowSizes.add(t.groupSize()));
        assertThat(rowSizes).containsExactly(1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 2, 2);
    }

    private static long nowMicros() {
        long[] clocks = Clocks.pair();
        return clocks[1] / 1_000;
    }
}
