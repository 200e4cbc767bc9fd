package io.fournines.nexmark.trades;

/**
 * Deterministic stock trades: trade i's ticker, price and quantity are functions of i and the seed
 * alone (a SplitMix64 hash), so every run, and every split of the sequence over threads, makes the
 * same trades. Tickers are uniform over {@code tickers} 5-letter symbols (AAAAA, AAAAB, ...); prices
 * are uniform between 1 and 1000 units, quantities between 1 and 1000.
 */
public final class TradeGenerator {

    /** The Jet team's Kafka latency benchmark's ticker count. */
    public static final int DEFAULT_TICKERS = 50_000;

    private static final long SEED = 1;

    private final String[] symbols;

    public TradeGenerator(int tickers) {
        if (tickers < 1 || tickers > 26 * 26 * 26 * 26 * 26) {
            throw new IllegalArgumentException("tickers must be from 1 to 26^5; got " + tickers);
        }
        symbols = new String[tickers];
        for (int t = 0; t < tickers; t++) {
            symbols[t] = symbol(t);
        }
    }

    public Trade trade(long sequence, long scheduledEpochNanos) {
        long h = mix(SEED * 0x9E3779B97F4A7C15L + sequence);
        String ticker = symbols[(int) Long.remainderUnsigned(h, symbols.length)];
        long h2 = mix(h);
        long price = 1_000_000L + Long.remainderUnsigned(h2, 999_000_000L);
        int quantity = 1 + (int) Long.remainderUnsigned(h2 >>> 32, 1000);
        return new Trade(scheduledEpochNanos, ticker, price, quantity);
    }

    /** Ticker number t as five letters, base 26. */
    public static String symbol(int t) {
        char[] c = new char[TradeCodec.TICKER_LENGTH];
        for (int i = c.length - 1; i >= 0; i--) {
            c[i] = (char) ('A' + t % 26);
            t /= 26;
        }
        return new String(c);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
