package io.fournines.cluster;

import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.snapshot.SnapshotStore;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One job's snapshots on a member of a cluster: this member's chunks stay in its heap (the primary
 * copy) and each goes, as a binary frame over the member connections, to the next {@code backups}
 * live members in index order, which keep it and acknowledge it. A snapshot is replicated on this
 * member once every frame it sent was acknowledged ({@link #whenReplicated}); the cluster commits
 * it only then, so a committed snapshot survives losing any {@code backups} members. Commits
 * apply to this member's copy and to the copies it keeps for others ({@link #copyOf}).
 */
public final class ReplicatedSnapshotStore implements SnapshotStore {

    private static final byte BEGIN = 1;
    private static final byte CHUNK = 2;
    private static final byte ACK = 3;

    private final Cluster cluster;
    private final long jobId;
    private final int backups;
    private final InMemorySnapshotStore own = new InMemorySnapshotStore();
    /** Copies of other members' chunks, by the member that wrote them. */
    private final Map<Integer, InMemorySnapshotStore> copies = new ConcurrentHashMap<>();
    /** The snapshot each member's copy holds begun, by member. */
    private final Map<Integer, Long> copyBegun = new ConcurrentHashMap<>();

    private volatile int[] backupMembers = new int[0];
    private long sending = NONE;
    private long sentFrames;
    private long ackedFrames;
    private Runnable onReplicated;

    ReplicatedSnapshotStore(Cluster cluster, long jobId, int backups) {
        if (backups < 0) {
            throw new IllegalArgumentException("snapshot backups must be 0 or more; is " + backups);
        }
        this.cluster = cluster;
        this.jobId = jobId;
        this.backups = backups;
    }

    @Override
    public void begin(long snapshotId) {
        own.begin(snapshotId);
        int[] targets = liveBackups();
        synchronized (this) {
            sending = snapshotId;
            sentFrames = 0;
            ackedFrames = 0;
            onReplicated = null;
            backupMembers = targets;
        }
        for (int m : targets) {
            send(m, frame(BEGIN, snapshotId, 0));
        }
    }

    @Override
    public void write(long snapshotId, String vertex, int partition, byte[] chunk) {
        own.write(snapshotId, vertex, partition, chunk);
        byte[] name = vertex.getBytes(StandardCharsets.UTF_8);
        for (int m : backupMembers) {
            ByteBuf header = frame(CHUNK, snapshotId, 4 + 2 + name.length).writeInt(partition).writeShort(name.length).writeBytes(name);
            send(m, Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(chunk)));
        }
    }

    /** The next live members after this one, wrapping around: where this member's chunks go. */
    private int[] liveBackups() {
        List<Integer> targets = new ArrayList<>();
        for (int step = 1; step < cluster.size() && targets.size() < backups; step++) {
            int m = (cluster.self() + step) % cluster.size();
            if (cluster.lostCause(m) == null) {
                targets.add(m);
            }
        }
        return targets.stream().mapToInt(Integer::intValue).toArray();
    }

    private void send(int member, ByteBuf frame) {
        synchronized (this) {
            sentFrames++;
        }
        // A lost backup never acknowledges: the snapshot is not replicated, and the job recovers from the previous one.
        cluster.send(member, frame);
    }

    private ByteBuf frame(byte kind, long snapshotId, int extra) {
        return Unpooled.buffer(1 + 8 + 1 + 8 + extra).writeByte(Frames.SNAPSHOT).writeLong(jobId).writeByte(kind).writeLong(snapshotId);
    }

    /** Runs {@code action} (now, or on the I/O thread) once every backup acknowledged all of snapshot {@code snapshotId}. */
    public void whenReplicated(long snapshotId, Runnable action) {
        synchronized (this) {
            if (snapshotId != sending) {
                throw new IllegalStateException("snapshot " + snapshotId + " is not the one being written (" + sending + ")");
            }
            if (ackedFrames < sentFrames) {
                onReplicated = action;
                return;
            }
        }
        action.run();
    }

    /** Called on the I/O thread with the rest of a {@link Frames#SNAPSHOT} frame from {@code from}. */
    void onFrame(int from, ByteBuf in) {
        byte kind = in.readByte();
        long snapshotId = in.readLong();
        switch (kind) {
            case BEGIN -> {
                copies.computeIfAbsent(from, m -> new InMemorySnapshotStore()).begin(snapshotId);
                copyBegun.put(from, snapshotId);
                acknowledge(from, snapshotId);
            }
            case CHUNK -> {
                int partition = in.readInt();
                String vertex = in.readCharSequence(in.readUnsignedShort(), StandardCharsets.UTF_8).toString();
                byte[] chunk = new byte[in.readableBytes()];
                in.readBytes(chunk);
                copies.get(from).write(snapshotId, vertex, partition, chunk);
                acknowledge(from, snapshotId);
            }
            case ACK -> acknowledged(snapshotId);
            default -> cluster.log("ignoring snapshot message " + kind + " of job " + jobId + " from member " + from);
        }
    }

    private void acknowledge(int owner, long snapshotId) {
        cluster.send(owner, frame(ACK, snapshotId, 0));
    }

    private void acknowledged(long snapshotId) {
        Runnable action = null;
        synchronized (this) {
            if (snapshotId == sending && ++ackedFrames == sentFrames && onReplicated != null) {
                action = onReplicated;
                onReplicated = null;
            }
        }
        if (action != null) {
            action.run();
        }
    }

    @Override
    public void commit(long snapshotId) {
        own.commit(snapshotId);
        copyBegun.forEach((member, begun) -> {
            if (begun == snapshotId) {
                copies.get(member).commit(snapshotId);
            }
        });
    }

    @Override
    public long latestCommitted() {
        return own.latestCommitted();
    }

    @Override
    public List<byte[]> read(long snapshotId, String vertex, int partition) {
        return own.read(snapshotId, vertex, partition);
    }

    /** The copy this member keeps of {@code member}'s chunks (empty if it keeps none). */
    public SnapshotStore copyOf(int member) {
        return copies.getOrDefault(member, new InMemorySnapshotStore());
    }

    /** Bytes of this member's own state in a snapshot (for metrics). */
    public long sizeInBytes(long snapshotId) {
        return own.sizeInBytes(snapshotId);
    }
}
