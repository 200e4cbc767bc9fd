package io.fournines.nexmark.trades;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A trade as a Kafka record: the 5-byte ASCII ticker as the key, and a 25-byte value
 * <pre>scheduledEpochNanos:long ticker:5 bytes ASCII priceMicros:long quantity:int</pre>
 * (big-endian), so 30 bytes of key and value a trade, as in the blog's benchmark.
 */
public final class TradeCodec {

    public static final int TICKER_LENGTH = 5;
    public static final int VALUE_BYTES = Long.BYTES + TICKER_LENGTH + Long.BYTES + Integer.BYTES;

    private TradeCodec() {
    }

    public static byte[] key(Trade trade) {
        return ascii(trade.ticker());
    }

    public static byte[] value(Trade trade) {
        return ByteBuffer.allocate(VALUE_BYTES)
                .putLong(trade.scheduledEpochNanos())
                .put(ascii(trade.ticker()))
                .putLong(trade.priceMicros())
                .putInt(trade.quantity())
                .array();
    }

    /** @throws IllegalArgumentException if the value is not a trade */
    public static Trade decode(byte[] value) {
        if (value == null || value.length != VALUE_BYTES) {
            throw new IllegalArgumentException("a trade is " + VALUE_BYTES + " bytes; got " + (value == null ? "no value" : value.length + " bytes"));
        }
        ByteBuffer in = ByteBuffer.wrap(value);
        long scheduled = in.getLong();
        byte[] ticker = new byte[TICKER_LENGTH];
        in.get(ticker);
        for (byte b : ticker) {
            if (b < 'A' || b > 'Z') {
                throw new IllegalArgumentException("ticker bytes must be A-Z; got " + (b & 0xff));
            }
        }
        long price = in.getLong();
        int quantity = in.getInt();
        if (price <= 0 || quantity <= 0) {
            throw new IllegalArgumentException("price and quantity must be > 0; got " + price + " and " + quantity);
        }
        return new Trade(scheduled, new String(ticker, StandardCharsets.US_ASCII), price, quantity);
    }

    private static byte[] ascii(String ticker) {
        byte[] bytes = ticker.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != TICKER_LENGTH) {
            throw new IllegalArgumentException("a ticker has " + TICKER_LENGTH + " letters; got '" + ticker + "'");
        }
        return bytes;
    }
}
