package io.fournines.nexmark.fournines;

/**
 * A regression made on purpose, for validating the regression gate and nothing else: with
 * {@code -Dfournines.gate.injectedWorkPerEvent=N} every event that reaches the query's first stage
 * costs N more rounds of a small hash, so a candidate build can be made slower by a known amount
 * without changing its code. member.json records N ({@code engine_settings.injected_work_per_event}).
 */
final class InjectedWork {

    static final String PROPERTY = "fournines.gate.injectedWorkPerEvent";
    static final long ROUNDS = Long.getLong(PROPERTY, 0);

    /** Written so the JIT cannot drop the rounds. */
    private static volatile long sink;

    private InjectedWork() {
    }

    static void perEvent() {
        if (ROUNDS > 0) {
            long h = sink;
            for (long i = 0; i < ROUNDS; i++) {
                h = (h ^ (h >>> 31) ^ i) * 0x9E3779B97F4A7C15L;
            }
            sink = h;
        }
    }
}
