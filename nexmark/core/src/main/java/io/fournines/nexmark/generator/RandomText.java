package io.fournines.nexmark.generator;

import java.nio.charset.StandardCharsets;

/**
 * Random strings for names, e-mail addresses, descriptions and padding. One 64-bit draw yields 12
 * characters (5 bits each), and a reusable scratch buffer means a string costs exactly its own
 * allocation. Not thread-safe: one per generator.
 */
final class RandomText {
    /** 32 symbols: the letters, a space, and the five commonest letters again, so text reads like words. */
    private static final byte[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyz eaiot".getBytes(StandardCharsets.US_ASCII);
    private static final int BITS_PER_CHAR = 5;
    private static final int CHARS_PER_DRAW = 64 / BITS_PER_CHAR;
    private static final long TEN_TO_THE_16 = 10_000_000_000_000_000L;

    /** Longest string asked for: Beam's auction padding (500 bytes average, +20 %). */
    private final byte[] scratch = new byte[1024];

    /** Lowercase text with a length uniform in {@code [minLength, maxLength)}. */
    String text(EventRandom random, int minLength, int maxLength) {
        return text(random, minLength + random.nextInt(maxLength - minLength));
    }

    /** Lowercase text of exactly {@code length} characters. */
    String text(EventRandom random, int length) {
        long bits = 0;
        for (int i = 0; i < length; i++) {
            if (i % CHARS_PER_DRAW == 0) {
                bits = random.nextLong();
            }
            scratch[i] = ALPHABET[(int) (bits & (ALPHABET.length - 1))];
            bits >>>= BITS_PER_CHAR;
        }
        return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** Sixteen random digits in four groups of four, as Beam's credit card numbers. */
    String creditCard(EventRandom random) {
        long digits = random.nextLong(TEN_TO_THE_16);
        int length = 19;
        for (int i = length - 1; i >= 0; i--) {
            if (i % 5 == 4) {
                scratch[i] = ' ';
            } else {
                scratch[i] = (byte) ('0' + digits % 10);
                digits /= 10;
            }
        }
        return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * Beam's padding rule: an event estimated at {@code currentSize} bytes gets {@code extra} so that
     * events average {@code averageSize} bytes, with lengths spread +-20 % around the gap.
     */
    String padding(EventRandom random, int currentSize, int averageSize) {
        if (currentSize >= averageSize) {
            return "";
        }
        int gap = averageSize - currentSize;
        int delta = Math.round(gap * 0.2f);
        int length = gap - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
        return text(random, length);
    }
}
