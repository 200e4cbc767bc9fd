package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * The binary form of one job's snapshot messages between members, inside a {@link Frames#SNAPSHOT}
 * frame: the job, a kind, the job's attempt (so a message from before a restart never counts after
 * it), the snapshot, then the kind's body; a chunk is its partition, its vertex and its bytes.
 */
final class SnapshotFrames {

    /** Writer to backup: a snapshot begins; the backup acknowledges it. */
    static final byte BEGIN = 1;
    /** Writer to backup: one chunk of it; acknowledged. */
    static final byte CHUNK = 2;
    static final byte ACK = 3;
    /** A survivor to a holder: send me writer w's chunks of these partitions. */
    static final byte FETCH = 4;
    /** The holder: one of them. */
    static final byte FETCHED = 5;
    /** The holder: that was all (1), or it holds no committed copy (0). */
    static final byte FETCH_END = 6;
    /** Room to reserve in a frame's header buffer for a chunk's partition and vertex name (it grows if needed). */
    static final int CHUNK_ROOM = 64;

    /** One chunk of a member's snapshot state. */
    record Chunk(String vertex, int partition, byte[] bytes) {
    }

    private SnapshotFrames() {
    }

    /** A frame's header, with {@code extra} bytes of room for its body. */
    static ByteBuf header(long jobId, byte kind, int attempt, long snapshotId, int extra) {
        return Unpooled.buffer(1 + 8 + 1 + 4 + 8 + extra).writeByte(Frames.SNAPSHOT).writeLong(jobId).writeByte(kind)
                .writeInt(attempt).writeLong(snapshotId);
    }

    /** {@code header}, then one chunk: its partition, its vertex, its bytes (not copied). */
    static ByteBuf withChunk(ByteBuf header, Chunk chunk) {
        byte[] name = chunk.vertex().getBytes(StandardCharsets.UTF_8);
        header.writeInt(chunk.partition()).writeShort(name.length).writeBytes(name);
        return Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(chunk.bytes()));
    }

    /** The chunk {@link #withChunk} wrote, read from the rest of the frame. */
    static Chunk readChunk(ByteBuf in) {
        int partition = in.readInt();
        String vertex = in.readCharSequence(in.readUnsignedShort(), StandardCharsets.UTF_8).toString();
        byte[] bytes = new byte[in.readableBytes()];
        in.readBytes(bytes);
        return new Chunk(vertex, partition, bytes);
    }
}
