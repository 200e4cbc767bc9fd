package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.BitSet;

/**
 * The wire form of {@link ViewMessage}s: a {@link Frames#HEARTBEAT} frame carries the sender's
 * view (term, coordinator); a {@link Frames#VIEW} frame carries a vote request, a vote or a view's
 * installation. A frame cut short throws while it is read, which closes the connection.
 */
final class ViewFrames {

    private static final byte VOTE_REQUEST = 1;
    private static final byte VOTE = 2;
    private static final byte INSTALL = 3;

    private ViewFrames() {
    }

    static ByteBuf encode(ByteBufAllocator alloc, ViewMessage message) {
        if (message instanceof ViewMessage.Heartbeat heartbeat) {
            return alloc.buffer(1 + 8 + 4).writeByte(Frames.HEARTBEAT).writeLong(heartbeat.term()).writeInt(heartbeat.coordinator());
        }
        ByteBuf frame = alloc.buffer(32).writeByte(Frames.VIEW);
        if (message instanceof ViewMessage.VoteRequest request) {
            frame.writeByte(VOTE_REQUEST).writeLong(request.term());
        } else if (message instanceof ViewMessage.Vote vote) {
            frame.writeByte(VOTE).writeLong(vote.term()).writeBoolean(vote.granted());
        } else if (message instanceof ViewMessage.Install install) {
            long[] words = install.members().toLongArray();
            frame.writeByte(INSTALL).writeLong(install.term()).writeInt(words.length);
            for (long word : words) {
                frame.writeLong(word);
            }
        } else {
            throw new IllegalArgumentException("no wire form for " + message);
        }
        return frame;
    }

    /** A heartbeat frame's body (after its type byte). */
    static ViewMessage.Heartbeat heartbeat(ByteBuf in) {
        return new ViewMessage.Heartbeat(in.readLong(), in.readInt());
    }

    /**
     * A view frame's body (after its type byte), or null for a kind no member sends.
     *
     * @param size the cluster's size: an installed view naming members beyond it is refused
     */
    static ViewMessage view(ByteBuf in, int size) {
        byte kind = in.readByte();
        long term = in.readLong();
        switch (kind) {
            case VOTE_REQUEST:
                return new ViewMessage.VoteRequest(term);
            case VOTE:
                return new ViewMessage.Vote(term, in.readBoolean());
            case INSTALL:
                int count = in.readInt();
                if (count < 0 || count > (size + 63) / 64) {
                    throw new IllegalArgumentException("a view of " + count + " words of members, for a cluster of " + size);
                }
                long[] words = new long[count];
                for (int i = 0; i < count; i++) {
                    words[i] = in.readLong();
                }
                BitSet members = BitSet.valueOf(words);
                if (members.length() > size) {
                    throw new IllegalArgumentException("a view naming member " + (members.length() - 1) + " in a cluster of " + size);
                }
                return new ViewMessage.Install(term, members);
            default:
                return null;
        }
    }
}
