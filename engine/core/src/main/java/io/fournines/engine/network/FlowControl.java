package io.fournines.engine.network;

/**
 * Credit-based flow control on distributed edges, as in the Jet paper. Credit counts entries (items,
 * watermarks and the done marker), not bytes: every {@link #PERIOD_NANOS} the receiver grants the
 * sender {@code delivered + window}, where the window moves halfway toward {@link #WINDOW_MULTIPLIER}
 * times what it delivered downstream in the last period, never shrinks while the receiver has
 * nothing buffered, and stays within [{@link #MIN_WINDOW}, {@link #MAX_WINDOW}]. A sender out of
 * credit stops draining its input queues, so they fill and the producers, back to the source, stop.
 *
 * <p>Bound: per (edge, sending member, receiving member) at most {@link #MAX_WINDOW} entries are in
 * flight (in socket buffers and the receiver's packet queue) plus one edge queue per consumer; a
 * receiver that gets more than it granted fails the job instead of buffering.
 */
public final class FlowControl {

    public static final long PERIOD_NANOS = 100_000_000L;
    public static final int WINDOW_MULTIPLIER = 3;
    /** Granted from the start and never less: a few queues' worth, so a new stream is not starved. */
    public static final int MIN_WINDOW = 4_096;
    public static final int MAX_WINDOW = 1 << 17;
    /** A packet is sent when it reaches this size (Jet's packetSizeLimit); one item may push it over. */
    public static final int PACKET_SIZE_LIMIT = 16_384;

    private FlowControl() {
    }

    /** The next window from the current one, what was delivered in the last period, and whether anything is buffered. */
    public static long nextWindow(long window, long deliveredInPeriod, boolean buffered) {
        long target = WINDOW_MULTIPLIER * deliveredInPeriod;
        long next = window + (target - window) / 2;
        if (!buffered && next < window) {
            next = window;
        }
        return Math.max(MIN_WINDOW, Math.min(MAX_WINDOW, next));
    }
}
