package io.fournines.engine.network;

/** Reads one packet's entries in the order they were written. */
public interface PacketReader {

    void reset(byte[] packet);

    /** Whether unread bytes remain. */
    boolean hasMore();

    int readInt();

    long readLong();

    Object readObject();
}
