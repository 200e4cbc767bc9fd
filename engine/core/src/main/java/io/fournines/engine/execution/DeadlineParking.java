package io.fournines.engine.execution;

import org.agrona.concurrent.IdleStrategy;

import java.util.function.LongSupplier;

/**
 * The engine's own idle strategy ({@link Idling#PARK_BACKOFF}): after the first idle round it arms
 * the worker's parker and lets the worker run one more round, to catch data that raced with
 * arming; after a second it parks until the earliest tasklet deadline or for the next backoff step
 * ({@link IdleBackoff}). Producers wake an armed worker, so the park length does not bound the
 * latency of data-driven work. A round without progress while a tasklet is due now is not idle.
 */
final class DeadlineParking implements IdleStrategy {

    private final WorkerParker parker;
    private final LongSupplier earliestDeadline;
    private final IdleBackoff backoff;
    private boolean armed;

    DeadlineParking(WorkerParker parker, LongSupplier earliestDeadline, IdleBackoff backoff) {
        this.parker = parker;
        this.earliestDeadline = earliestDeadline;
        this.backoff = backoff;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        long deadline = earliestDeadline.getAsLong();
        if (deadline != Long.MAX_VALUE && deadline - System.nanoTime() <= 0) {
            reset();  // a tasklet has work due now that it wrote no output for (a fused source folding its events): not idle
            return;
        }
        if (!armed) {
            parker.arm();
            armed = true;
            return;
        }
        parker.park(backoff.nextPark(System.nanoTime(), deadline));
        parker.disarm();
        armed = false;
    }

    @Override
    public void reset() {
        if (armed) {
            parker.disarm();
            armed = false;
        }
        backoff.reset();
    }

    @Override
    public String alias() {
        return Idling.PARK_BACKOFF.spelled();
    }
}
