package io.fournines.engine.core;

import java.time.Instant;

/** Wall-clock time read against the monotonic clock, so epoch instants can be computed from nanoTime. */
public final class Clocks {

    private Clocks() {
    }

    /**
     * {nanoTime, epoch nanos} at one instant, read as close together as possible: the tightest of a few
     * nanoTime brackets around a wall-clock read. A skew between the two would shift every time derived
     * from them (the first wall-clock read of a JVM alone can take milliseconds).
     */
    public static long[] pair() {
        long[] best = null;
        long bestWidth = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 10; attempt++) {
            long before = System.nanoTime();
            Instant now = Instant.now();
            long after = System.nanoTime();
            if (after - before < bestWidth) {
                bestWidth = after - before;
                best = new long[] {before + (after - before) / 2, now.getEpochSecond() * 1_000_000_000L + now.getNano()};
            }
        }
        return best;
    }
}
