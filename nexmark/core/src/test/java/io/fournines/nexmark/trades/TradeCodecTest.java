package io.fournines.nexmark.trades;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TradeCodecTest {

    @Test
    void aTradeIsThirtyBytesOfKeyAndValueAndRoundTrips() {
        Trade trade = new TradeGenerator(50_000).trade(12_345, 1_700_000_000_123_456_789L);
        assertThat(TradeCodec.key(trade).length + TradeCodec.value(trade).length).isEqualTo(30);
        assertThat(TradeCodec.decode(TradeCodec.value(trade))).isEqualTo(trade);
        assertThat(trade.timeMillis()).isEqualTo(1_700_000_000_123L);
    }

    @Test
    void theSequenceIsDeterministicAndCoversTheTickers() {
        TradeGenerator a = new TradeGenerator(50_000);
        TradeGenerator b = new TradeGenerator(50_000);
        Set<String> tickers = new HashSet<>();
        for (long i = 0; i < 500_000; i++) {
            Trade t = a.trade(i, i);
            assertThat(t).isEqualTo(b.trade(i, i));
            tickers.add(t.ticker());
        }
        assertThat(tickers).hasSizeGreaterThan(49_000).allMatch(s -> s.matches("[A-Z]{5}"));
        assertThat(TradeGenerator.symbol(0)).isEqualTo("AAAAA");
        assertThat(TradeGenerator.symbol(27)).isEqualTo("AAABB");
    }

    @Test
    void malformedValuesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> TradeCodec.decode(new byte[3])).hasMessageContaining("a trade is 25 bytes; got 3 bytes");
        assertThatThrownBy(() -> TradeCodec.decode(null)).hasMessageContaining("no value");
        assertThatThrownBy(() -> TradeCodec.decode(new byte[25])).hasMessageContaining("A-Z");
    }
}
