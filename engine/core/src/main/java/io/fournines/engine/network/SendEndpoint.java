package io.fournines.engine.network;

/** The sending end of one distributed edge to one member. */
public interface SendEndpoint {

    /** The receiver allows entries up to {@code sendLimit} (a running count); called on the I/O thread. */
    void onCredit(long sendLimit);
}
