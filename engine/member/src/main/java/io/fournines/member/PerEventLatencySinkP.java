package io.fournines.member;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.nexmark.latency.EpochClock;
import io.fournines.nexmark.latency.LatencyLog;

/** Records, for each result, the sink's wall time minus the scheduled time of the event behind it. */
final class PerEventLatencySinkP extends AbstractProcessor {

    private final LatencyLog log;
    private final EpochClock clock;

    PerEventLatencySinkP(LatencyLog log, EpochClock clock) {
        this.log = log;
        this.clock = clock;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        log.recordMicros(clock.nowMicros() - ((Scheduled<?>) item).scheduledEpochNanos() / 1_000);
        return true;
    }
}
