package io.fournines.nexmark.trades;

/**
 * One stock trade, as in the Jet team's Kafka latency benchmark: when it was scheduled, the ticker
 * (5 letters), the price in micro-units and the quantity.
 */
public record Trade(long scheduledEpochNanos, String ticker, long priceMicros, int quantity) {

    /** Event time for windows: the scheduled time in milliseconds. */
    public long timeMillis() {
        return Math.floorDiv(scheduledEpochNanos, 1_000_000L);
    }
}
