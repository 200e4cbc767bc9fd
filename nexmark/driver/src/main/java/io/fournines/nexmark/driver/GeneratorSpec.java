package io.fournines.nexmark.driver;

import io.fournines.nexmark.generator.GeneratorConfig;

import java.io.Serializable;

/**
 * The open-loop NEXMark load, as a value the engines can ship with their jobs (Jet and Flink
 * serialize their sources): seed 1 like the reference member, {@code rate} events/s over all
 * slices, ids recycled over {@code keys}, and at most {@code limit} events (bounded test inputs).
 * Several jobs on one member each run their own seed ({@link Scenario#job}), so they are not copies.
 */
public record GeneratorSpec(long rate, long keys, long limit, long seed) implements Serializable {

    /** The reference member's seed, so every engine sees the same event sequence. */
    public static final long SEED = 1;

    public static GeneratorSpec endless(long rate, long keys) {
        return new GeneratorSpec(rate, keys, Long.MAX_VALUE, SEED);
    }

    public static GeneratorSpec bounded(long rate, long keys, long events) {
        return new GeneratorSpec(rate, keys, events, SEED);
    }

    public GeneratorSpec withSeed(long seed) {
        return new GeneratorSpec(rate, keys, limit, seed);
    }

    public GeneratorConfig config() {
        return GeneratorConfig.defaults(seed).withRate(rate).withKeys(keys);
    }
}
