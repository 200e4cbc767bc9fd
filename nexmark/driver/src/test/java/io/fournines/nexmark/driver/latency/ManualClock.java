package io.fournines.nexmark.driver.latency;

/** A clock the test moves by hand, so interval boundaries and latencies are exact. */
final class ManualClock implements EpochClock {
    private volatile long micros;

    ManualClock(long startMicros) {
        this.micros = startMicros;
    }

    void advanceMillis(long millis) {
        micros += millis * 1_000;
    }

    @Override
    public long nowMicros() {
        return micros;
    }
}
