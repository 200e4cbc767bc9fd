package io.fournines.nexmark.driver.latency;

import java.time.Instant;

/** Wall-clock time in epoch microseconds: the clock that sink times and scheduled times share. */
@FunctionalInterface
public interface EpochClock {

    long nowMicros();

    /**
     * The system wall clock at microsecond resolution: read once, then advanced by
     * {@link System#nanoTime()}. {@code currentTimeMillis} alone would put a 1 ms step in every
     * latency, and {@code nanoTime} does not jump when NTP or chrony steps the wall clock mid-run
     * (it does slew with it, so a run of hours stays within the clock's own drift).
     */
    static EpochClock system() {
        Instant start = Instant.now();
        long startMicros = start.getEpochSecond() * 1_000_000L + start.getNano() / 1_000;
        long startNanos = System.nanoTime();
        return () -> startMicros + (System.nanoTime() - startNanos) / 1_000;
    }
}
