package io.fournines.engine.cluster;

import com.esotericsoftware.kryo.KryoException;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.network.PacketReader;
import io.fournines.engine.network.PacketWriter;
import io.fournines.engine.window.KeyedFrame;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KryoPacketCodecTest {

    record Bid(long auction, long price, String extra) {
    }

    @Test
    void entriesComeBackInOrderAndEveryPacketDecodesOnItsOwn() {
        KryoPacketCodec codec = new KryoPacketCodec();
        PacketWriter writer = codec.newWriter();
        PacketReader reader = codec.newReader();
        List<Object> items = List.of(new KeyedFrame(1_000, 42L, new LongAccumulator(7)), new Bid(1, 2, "x"),
                new ArrayList<>(List.of("a", "b")), new KeyedFrame(2_000, "key", new LongAccumulator(-1)));
        for (int packet = 0; packet < 2; packet++) {
            writer.reset();
            for (Object item : items) {
                writer.writeInt(-2);
                writer.writeLong(Long.MAX_VALUE);
                writer.writeObject(item);
            }
            reader.reset(writer.toBytes());
            List<Object> decoded = new ArrayList<>();
            while (reader.hasMore()) {
                assertThat(reader.readInt()).isEqualTo(-2);
                assertThat(reader.readLong()).isEqualTo(Long.MAX_VALUE);
                decoded.add(reader.readObject());
            }
            assertThat(decoded).isEqualTo(items);
        }
    }

    @Test
    void aClassOutsideTheAllowListIsRefusedBeforeItIsMade() {
        KryoPacketCodec codec = new KryoPacketCodec();
        PacketWriter writer = codec.newWriter();
        writer.reset();
        writer.writeObject(new java.awt.Point(1, 2));
        writer.writeObject(new long[] {1, 2});
        PacketReader reader = codec.newReader();
        reader.reset(writer.toBytes());
        assertThatThrownBy(reader::readObject).isInstanceOf(KryoException.class)
                .hasMessageContaining("class java.awt.Point is not allowed from other members");
        writer.reset();
        writer.writeObject(new long[] {1, 2});
        writer.writeObject(new String[] {"a"});
        reader.reset(writer.toBytes());
        assertThat(reader.readObject()).isEqualTo(new long[] {1, 2});
        assertThat(reader.readObject()).isEqualTo(new String[] {"a"});
    }
}
