package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Splits a member connection's bytes into length-prefixed frames (a 4-byte length, then the frame).
 * Until the handshake succeeds a frame may be only {@link #HANDSHAKE_MAX_BYTES}: an unauthenticated
 * peer announcing a large frame is refused at once, before anything is buffered for it. Afterwards
 * frames up to {@link #MAX_BYTES} pass (packets, snapshot chunks).
 */
final class MemberFrameDecoder extends ByteToMessageDecoder {

    /** The largest handshake frame is a refusal's reason; challenge, hello and welcome are under 100 bytes. */
    static final int HANDSHAKE_MAX_BYTES = 1 << 10;
    static final int MAX_BYTES = 64 << 20;

    private int maxBytes = HANDSHAKE_MAX_BYTES;

    /** The peer proved the secret: frames of any size up to {@link #MAX_BYTES} pass from now on. */
    void authenticated() {
        maxBytes = MAX_BYTES;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 1 || length > maxBytes) {
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException("a frame of " + Integer.toUnsignedString(length) + " bytes; at most " + maxBytes
                    + (maxBytes == HANDSHAKE_MAX_BYTES ? " before the handshake" : ""));
        }
        if (in.readableBytes() < 4 + length) {
            return;
        }
        in.skipBytes(4);
        out.add(in.readRetainedSlice(length));
    }
}
