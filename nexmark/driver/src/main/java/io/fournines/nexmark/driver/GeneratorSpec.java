package io.fournines.nexmark.driver;

import io.fournines.nexmark.generator.GeneratorConfig;

import java.io.Serializable;

/**
 * The open-loop NEXMark load, as a value the engines can ship with their jobs (Jet and Flink
 * serialize their sources): seed 1 like the reference member, {@code rate} events/s over all
 * slices, ids recycled over {@code keys}, and at most {@code limit} events (bounded test inputs).
 */
public record GeneratorSpec(long rate, long keys, long limit) implements Serializable {

    /** The reference member's seed, so every engine sees the same event sequence. */
    public static final long SEED = 1;

    public static GeneratorSpec endless(long rate, long keys) {
        return new GeneratorSpec(rate, keys, Long.MAX_VALUE);
    }

    public static GeneratorSpec bounded(long rate, long keys, long events) {
        return new GeneratorSpec(rate, keys, events);
    }

    public GeneratorConfig config() {
        return GeneratorConfig.defaults(SEED).withRate(rate).withKeys(keys);
    }
}
