package io.fournines.nexmark.fournines;

import io.fournines.engine.core.DelegatingProcessor;
import io.fournines.engine.core.Processor;

import java.util.function.BooleanSupplier;

/**
 * A sink that does not finish until {@code released} holds: it has taken every result, and still
 * saves and commits each snapshot. A kill test's moment (the Nth snapshot committed) then comes
 * while the job runs however slowly its snapshots go; a short job on a loaded machine would
 * otherwise end first, with the moment never reached.
 */
final class HeldOpenSinkP extends DelegatingProcessor {

    /** How often a held sink looks at {@code released} (a file's existence) at most. */
    private static final long CHECK_NANOS = 10_000_000;

    private final BooleanSupplier released;
    private boolean isReleased;
    private long nextCheckNanos;

    HeldOpenSinkP(Processor sink, BooleanSupplier released) {
        super(sink);
        this.released = released;
    }

    @Override
    public boolean complete() {
        if (!isReleased) {
            long now = System.nanoTime();
            if (now < nextCheckNanos) {
                return false;
            }
            nextCheckNanos = now + CHECK_NANOS;
            isReleased = released.getAsBoolean();
            if (!isReleased) {
                return false;
            }
        }
        return super.complete();
    }

    @Override
    public long nextDeadlineNanos() {
        return isReleased ? super.nextDeadlineNanos() : Math.min(super.nextDeadlineNanos(), nextCheckNanos);
    }
}
