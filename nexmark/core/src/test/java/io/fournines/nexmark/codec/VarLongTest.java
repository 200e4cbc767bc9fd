package io.fournines.nexmark.codec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class VarLongTest {

    @ParameterizedTest
    @CsvSource({
        "0, 1", "-1, 1", "63, 1", "-64, 1", "64, 2", "-65, 2", "8191, 2", "8192, 3",
        "1436918400000, 6", "9223372036854775807, 10", "-9223372036854775808, 10"})
    void roundTripsInTheExpectedNumberOfBytes(long value, int bytes) {
        ByteBuffer buffer = ByteBuffer.allocate(16);
        VarLong.write(buffer, value);
        assertThat(buffer.position()).isEqualTo(bytes);
        buffer.flip();
        assertThat(VarLong.read(buffer)).isEqualTo(value);
        assertThat(buffer.hasRemaining()).isFalse();
    }
}
