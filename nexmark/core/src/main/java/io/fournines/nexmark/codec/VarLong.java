package io.fournines.nexmark.codec;

import java.nio.ByteBuffer;

/**
 * Zig-zag LEB128: a signed long as 1 to 10 bytes, 7 bits per byte, low group first, the high bit
 * set on every byte but the last. Zig-zag maps small magnitudes of either sign to small codes
 * (0, -1, 1, -2 ... become 0, 1, 2, 3 ...).
 */
final class VarLong {
    private static final int MAX_BYTES = 10;

    private VarLong() {
    }

    static void write(ByteBuffer out, long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7FL) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    static long read(ByteBuffer in) {
        long v = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            byte b = in.get();
            v |= (long) (b & 0x7F) << (7 * i);
            if (b >= 0) {
                return (v >>> 1) ^ -(v & 1);
            }
        }
        throw new IllegalArgumentException("malformed varint: more than " + MAX_BYTES + " bytes");
    }
}
