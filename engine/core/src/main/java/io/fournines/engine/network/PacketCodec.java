package io.fournines.engine.network;

/**
 * Encodes the entries of a network packet. Each sender has its own writer and each receiver its own
 * reader, used from one thread at a time; a packet is self-contained (no state carries over).
 */
public interface PacketCodec {

    PacketWriter newWriter();

    PacketReader newReader();
}
