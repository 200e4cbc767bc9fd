package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * After the handshake, every frame on a member connection ends with a tag: HMAC-SHA256, cut to
 * {@link #TAG_BYTES}, under a key of this connection alone (the cluster secret's HMAC over both
 * handshake nonces, both indices and the member list's hash: {@link MemberConnectionHandler}), over
 * the frame's direction, its sequence number in that direction and the frame. A frame whose tag does
 * not match (injected, altered, replayed, reflected, reordered, or one dropped before it) fails the
 * connection, which closes it. Until {@link #enable}, frames pass untouched: the handshake proves
 * itself. HMAC rather than AES-GMAC: the two cost the same in the transport benchmark (engine/MEASURED.md),
 * and an HMAC has no nonce that must never repeat.
 *
 * <p>Used on the connection's event loop only, where Netty runs every write.
 */
final class FrameAuthenticator extends ChannelDuplexHandler {

    static final int TAG_BYTES = 16;
    private static final byte FROM_DIALER = 'd';
    private static final byte FROM_ACCEPTOR = 'a';

    private Mac outgoing;
    private Mac incoming;
    private byte outgoingDirection;
    private byte incomingDirection;
    private long sent;
    private long received;
    private final ByteBuffer header = ByteBuffer.allocate(1 + 8);

    /** From now on frames carry tags under {@code sessionKey}; {@code dialer}: this side dialed. */
    void enable(byte[] sessionKey, boolean dialer) {
        outgoing = hmac(sessionKey);
        incoming = hmac(sessionKey);
        outgoingDirection = dialer ? FROM_DIALER : FROM_ACCEPTOR;
        incomingDirection = dialer ? FROM_ACCEPTOR : FROM_DIALER;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (incoming == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf frame = (ByteBuf) msg;
        int length = frame.readableBytes() - TAG_BYTES;
        if (length < 1) {
            frame.release();
            throw new FrameAuthenticationException("a frame of " + frame.readableBytes() + " bytes, too short to carry its tag");
        }
        long sequence = received++;
        byte[] expected = tag(incoming, incomingDirection, sequence, frame, length);
        byte[] actual = new byte[TAG_BYTES];
        frame.getBytes(frame.readerIndex() + length, actual);
        if (!MessageDigest.isEqual(expected, actual)) {
            frame.release();
            throw new FrameAuthenticationException("frame " + sequence + " does not carry this connection's tag: injected, altered,"
                    + " replayed or out of order");
        }
        frame.writerIndex(frame.readerIndex() + length);
        ctx.fireChannelRead(frame);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (outgoing == null || !(msg instanceof ByteBuf frame)) {
            ctx.write(msg, promise);
            return;
        }
        byte[] tag = tag(outgoing, outgoingDirection, sent++, frame, frame.readableBytes());
        ctx.write(Unpooled.wrappedBuffer(frame, Unpooled.wrappedBuffer(tag)), promise);
    }

    /** The tag of the first {@code length} readable bytes of {@code frame}, sent {@code sequence}th in {@code direction}. */
    private byte[] tag(Mac mac, byte direction, long sequence, ByteBuf frame, int length) {
        header.clear();
        header.put(direction).putLong(sequence).flip();
        mac.update(header);
        mac.update(frame.nioBuffer(frame.readerIndex(), length));
        byte[] tag = new byte[TAG_BYTES];
        System.arraycopy(mac.doFinal(), 0, tag, 0, TAG_BYTES);
        return tag;
    }

    private static Mac hmac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** A frame failed its check: the connection is closed. */
    static final class FrameAuthenticationException extends RuntimeException {
        FrameAuthenticationException(String message) {
            super(message);
        }
    }
}
