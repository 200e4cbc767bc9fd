package io.fournines.nexmark.generator;

/**
 * The random numbers of one event: a SplitMix64 stream whose start is a hash of (seed, event id).
 * Because each event restarts its own stream, event {@code i} does not depend on which events were
 * generated before it, which is what lets N generators split one sequence exactly. Mutable and
 * reused across events, so generation allocates nothing for randomness. Every workload's generator
 * (NEXMark's, YSB's) draws from it.
 */
public final class EventRandom {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private long state;

    /** Restarts the stream for event {@code eventId}. */
    public void reset(long seed, long eventId) {
        state = mix64(seed ^ mix64(eventId * GOLDEN_GAMMA + GOLDEN_GAMMA));
    }

    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix64(state);
    }

    /**
     * Uniform in {@code [0, bound)} for {@code bound > 0}: the high half of the 128-bit product of a
     * random 64-bit value and the bound (Lemire's method without the rejection step; the bias is at
     * most bound / 2^64, far below anything a test or query could see), so no division is needed.
     */
    public long nextLong(long bound) {
        long r = nextLong();
        // Unsigned high product: the signed one, corrected for r's sign bit (bound is positive).
        return Math.multiplyHigh(r, bound) + ((r >> 63) & bound);
    }

    public int nextInt(int bound) {
        return (int) nextLong(bound);
    }

    /** Uniform in {@code [0, 1)} with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Stafford's variant 13 finaliser, as in {@link java.util.SplittableRandom}. */
    private static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
