package io.fournines.engine.network;

/** The receiving end of one distributed edge from one member. */
public interface ReceiveEndpoint {

    /** A data packet of {@code entries} entries arrived; called on the network's I/O thread, so it must not block. */
    void onPacket(int entries, byte[] packet);
}
