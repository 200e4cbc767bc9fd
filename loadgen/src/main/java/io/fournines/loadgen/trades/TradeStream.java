package io.fournines.loadgen.trades;

import io.fournines.loadgen.EventStream;
import io.fournines.nexmark.trades.Trade;
import io.fournines.nexmark.trades.TradeCodec;
import io.fournines.nexmark.trades.TradeGenerator;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The {@link TradeGenerator}'s trades as Kafka records ({@link TradeCodec}). */
public final class TradeStream implements EventStream {

    private final TradeGenerator trades;

    public TradeStream(int tickers) {
        trades = new TradeGenerator(tickers);
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partition, long sequence, long scheduledEpochNanos) {
        Trade trade = trades.trade(sequence, scheduledEpochNanos);
        return new ProducerRecord<>(topic, partition, null, TradeCodec.key(trade), TradeCodec.value(trade));
    }
}
