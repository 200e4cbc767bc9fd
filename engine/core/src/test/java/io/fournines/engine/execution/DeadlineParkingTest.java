package io.fournines.engine.execution;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's idle strategy, driven round by round on this thread. */
class DeadlineParkingTest {

    private final WorkerParker parker = new WorkerParker();
    private final IdleBackoff backoff = new IdleBackoff(TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));

    @Test
    void aRoundWithoutProgressArmsTheParkerSoProducersWakeTheWorker() {
        DeadlineParking idling = new DeadlineParking(parker, () -> Long.MAX_VALUE, backoff);

        idling.idle(0);

        assertThat(parker.armed()).isTrue();
    }

    /** A fused source that folded its events wrote nothing, but is due again at once: its worker goes on. */
    @Test
    void aTaskletDueNowKeepsTheWorkerFromArmingAndParking() {
        DeadlineParking idling = new DeadlineParking(parker, System::nanoTime, backoff);

        idling.idle(0);
        idling.idle(0);

        assertThat(parker.armed()).isFalse();
    }
}
