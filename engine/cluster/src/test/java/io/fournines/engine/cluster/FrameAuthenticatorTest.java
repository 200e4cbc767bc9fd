package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two ends of one connection, each with its authenticator, frames carried between them by hand. */
class FrameAuthenticatorTest {

    private static final byte[] KEY = "a session key of thirty-two byte".getBytes(StandardCharsets.US_ASCII);

    private final FrameAuthenticator dialerSide = new FrameAuthenticator();
    private final FrameAuthenticator acceptorSide = new FrameAuthenticator();
    private EmbeddedChannel dialer;
    private EmbeddedChannel acceptor;

    @BeforeEach
    void connect() {
        dialer = new EmbeddedChannel(dialerSide);
        acceptor = new EmbeddedChannel(acceptorSide);
        dialerSide.enable(KEY, true);
        acceptorSide.enable(KEY, false);
    }

    @Test
    void aTaggedFrameArrivesWithoutItsTagInBothDirections() {
        assertThat(text(carry(dialer, acceptor, "hello"))).isEqualTo("hello");
        assertThat(text(carry(acceptor, dialer, "welcome back"))).isEqualTo("welcome back");
        assertThat(text(carry(dialer, acceptor, "again"))).isEqualTo("again");
    }

    @Test
    void anAlteredFrameFailsTheConnection() {
        ByteBuf wire = send(dialer, "pay 10");
        wire.setByte(wire.readerIndex() + 4, '9');
        assertThatThrownBy(() -> acceptor.writeInbound(wire)).hasMessageContaining("does not carry this connection's tag");
    }

    @Test
    void aReplayedFrameFailsTheConnection() {
        ByteBuf wire = send(dialer, "once");
        ByteBuf copy = wire.copy();
        assertThat(text(deliver(acceptor, wire))).isEqualTo("once");
        assertThatThrownBy(() -> acceptor.writeInbound(copy)).hasMessageContaining("replayed or out of order");
    }

    @Test
    void aFrameSentBackToItsSenderFailsTheConnection() {
        ByteBuf wire = send(dialer, "reflected");
        assertThatThrownBy(() -> dialer.writeInbound(wire)).hasMessageContaining("does not carry this connection's tag");
    }

    @Test
    void aFrameTooShortForItsTagFailsTheConnection() {
        assertThatThrownBy(() -> acceptor.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})))
                .hasMessageContaining("too short to carry its tag");
    }

    @Test
    void beforeItIsEnabledFramesPassUntouched() {
        EmbeddedChannel plain = new EmbeddedChannel(new FrameAuthenticator());
        plain.writeOutbound(Unpooled.copiedBuffer("challenge", StandardCharsets.UTF_8));
        ByteBuf out = plain.readOutbound();
        assertThat(text(out)).isEqualTo("challenge");
    }

    private static ByteBuf carry(EmbeddedChannel from, EmbeddedChannel to, String text) {
        return deliver(to, send(from, text));
    }

    private static ByteBuf send(EmbeddedChannel from, String text) {
        from.writeOutbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
        ByteBuf wire = from.readOutbound();
        assertThat(wire.readableBytes()).isEqualTo(text.length() + FrameAuthenticator.TAG_BYTES);
        return Unpooled.copiedBuffer(wire);
    }

    private static ByteBuf deliver(EmbeddedChannel to, ByteBuf wire) {
        to.writeInbound(wire);
        return to.readInbound();
    }

    private static String text(ByteBuf frame) {
        try {
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }
}
