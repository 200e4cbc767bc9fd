package io.fournines.nexmark.fournines;

/**
 * A regression made on purpose, for validating the regression gate and nothing else: with
 * {@code -Dfournines.gate.injectedNanosPerEvent=N} every event that reaches the query's first stage
 * spins on the clock for about N ns more, so a candidate build can be made slower by a known amount of
 * CPU per event without changing its code. A spin on the clock, not a fixed amount of arithmetic:
 * the CPU overlaps short arithmetic with the event's other work, so its cost per round shrinks as
 * the rounds get fewer and a target is missed (analysis/MEASURED.md). member.json records N
 * ({@code engine_settings.injected_nanos_per_event}).
 */
final class InjectedWork {

    static final String PROPERTY = "fournines.gate.injectedNanosPerEvent";
    static final long NANOS = Long.getLong(PROPERTY, 0);
    /** The spin reads the clock once more than it waits for; its cost is taken off the wait. */
    private static final long SPIN_TARGET = NANOS > 0 ? Math.max(0, NANOS - clockReadNanos()) : 0;

    private InjectedWork() {
    }

    static void perEvent() {
        if (NANOS > 0) {
            long end = System.nanoTime() + SPIN_TARGET;
            while (System.nanoTime() < end) {
                // spinning is the point
            }
        }
    }

    private static long clockReadNanos() {
        int reads = 1_000_000;
        long start = System.nanoTime();
        for (int i = 0; i < reads - 1; i++) {
            System.nanoTime();
        }
        return (System.nanoTime() - start) / reads;
    }
}
