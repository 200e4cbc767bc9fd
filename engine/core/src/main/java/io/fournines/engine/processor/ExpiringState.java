package io.fournines.engine.processor;

/**
 * A key's state that sheds, by event time, what no later item can need: a join's halves once their
 * partner can no longer arrive, so an endless stream keeps bounded state. The processor calls
 * {@link #expire} when the watermark reaches {@link #nextExpiry()}; a state left empty is dropped.
 */
public interface ExpiringState {

    /** Event time at which something here may be dropped; {@link Long#MAX_VALUE} when nothing is held. */
    long nextExpiry();

    /**
     * Drops what no item at or after {@code watermark} can need (every later item has a timestamp of
     * at least {@code watermark}).
     *
     * @return whether anything is left
     */
    boolean expire(long watermark);
}
