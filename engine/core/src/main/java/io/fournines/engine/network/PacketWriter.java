package io.fournines.engine.network;

/** Builds one packet; reused for the next after {@link #reset()}. */
public interface PacketWriter {

    void reset();

    void writeInt(int value);

    void writeLong(long value);

    /** An item of any type the codec can serialise. */
    void writeObject(Object item);

    /** Bytes written since the last reset. */
    int size();

    /** The packet's bytes, a fresh array the caller owns. */
    byte[] toBytes();
}
