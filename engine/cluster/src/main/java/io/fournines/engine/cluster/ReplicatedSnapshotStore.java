package io.fournines.engine.cluster;

import io.fournines.engine.cluster.SnapshotFrames.Chunk;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.snapshot.SnapshotStore;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static io.fournines.engine.cluster.SnapshotFrames.ACK;
import static io.fournines.engine.cluster.SnapshotFrames.BEGIN;
import static io.fournines.engine.cluster.SnapshotFrames.CHUNK;
import static io.fournines.engine.cluster.SnapshotFrames.CHUNK_ROOM;
import static io.fournines.engine.cluster.SnapshotFrames.FETCH;
import static io.fournines.engine.cluster.SnapshotFrames.FETCHED;
import static io.fournines.engine.cluster.SnapshotFrames.FETCH_END;
import static io.fournines.engine.cluster.SnapshotFrames.readChunk;
import static io.fournines.engine.cluster.SnapshotFrames.withChunk;

/**
 * One job's snapshots on a member of a cluster: this member's chunks stay in its heap (the primary
 * copy) and each goes, as a binary frame over the member connections, to the next {@code backups}
 * live members the job runs on, in index order, which keep it and acknowledge it. A snapshot is replicated on this
 * member once every frame it sent was acknowledged ({@link #whenReplicated}); the cluster commits
 * it only then, so a committed snapshot survives losing any {@code backups} members. Commits
 * apply to this member's copy and to the copies it keeps for others ({@link #copyOf}).
 *
 * <p>To restart a job after a loss, each survivor {@link #gather gathers} the chunks it will
 * restore from ({@link StateGathering}); reads then come from what it gathered. Every frame carries
 * the job's attempt ({@link SnapshotFrames}), so an acknowledgement from before a restart never
 * counts for a snapshot after it.
 */
public final class ReplicatedSnapshotStore implements SnapshotStore {

    private final Cluster cluster;
    private final long jobId;
    private final int backups;
    private final InMemorySnapshotStore own = new InMemorySnapshotStore();
    /** Copies of other members' chunks, by the member that wrote them. */
    private final Map<Integer, InMemorySnapshotStore> copies = new ConcurrentHashMap<>();
    /** The snapshot each member's copy holds begun, by member. */
    private final Map<Integer, Long> copyBegun = new ConcurrentHashMap<>();

    private volatile int attempt;
    /** The members the running attempt runs on: the only ones chunks go to. */
    private volatile int[] members;
    private volatile int[] backupMembers = new int[0];
    private long sending = NONE;
    private long sentFrames;
    private long ackedFrames;
    private Runnable onReplicated;
    private final StateGathering gathering;

    ReplicatedSnapshotStore(Cluster cluster, long jobId, int backups) {
        if (backups < 0) {
            throw new IllegalArgumentException("snapshot backups must be 0 or more; is " + backups);
        }
        this.cluster = cluster;
        this.jobId = jobId;
        this.backups = backups;
        this.members = IntStream.range(0, cluster.size()).toArray();
        this.gathering = new StateGathering(cluster, jobId, backups, this::keptFor);
    }

    /** The job restarts on {@code members}: frames of earlier attempts are ignored from now on. */
    public synchronized void startAttempt(int attempt, int[] members) {
        this.attempt = attempt;
        this.members = members.clone();
        sending = NONE;
        onReplicated = null;
        gathering.startAttempt(attempt);
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
        for (int m : backupMembers) {
            send(m, withChunk(frame(CHUNK, snapshotId, CHUNK_ROOM), new Chunk(vertex, partition, chunk)));
        }
    }

    /** Every backup's connection is writable (a lost one is not waited for): chunks go out under the connection's flow control. */
    @Override
    public boolean acceptsWrites() {
        for (int m : backupMembers) {
            if (!cluster.writable(m)) {
                return false;
            }
        }
        return true;
    }

    /** The next live members of the attempt after this one, wrapping around: where this member's chunks go. */
    private int[] liveBackups() {
        int[] running = members;
        int self = Arrays.binarySearch(running, cluster.self());
        List<Integer> targets = new ArrayList<>();
        for (int step = 1; step < running.length && targets.size() < backups; step++) {
            int m = running[Math.floorMod(self + step, running.length)];
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
        return SnapshotFrames.header(jobId, kind, attempt, snapshotId, extra);
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
        int frameAttempt = in.readInt();
        long snapshotId = in.readLong();
        switch (kind) {
            case BEGIN -> {
                copies.computeIfAbsent(from, m -> new InMemorySnapshotStore()).begin(snapshotId);
                copyBegun.put(from, snapshotId);
                acknowledge(from, frameAttempt, snapshotId);
            }
            case CHUNK -> {
                Chunk chunk = readChunk(in);
                InMemorySnapshotStore copy = copies.get(from);
                if (copy == null) {
                    // Its BEGIN came before this store existed (this member was joining): no copy, so no acknowledgement.
                    cluster.log("job " + jobId + ": ignoring a chunk of snapshot " + snapshotId + " from member " + from + " that was never begun here");
                    return;
                }
                copy.write(snapshotId, chunk.vertex(), chunk.partition(), chunk.bytes());
                acknowledge(from, frameAttempt, snapshotId);
            }
            case ACK -> acknowledged(frameAttempt, snapshotId);
            case FETCH -> gathering.serveFetch(from, frameAttempt, snapshotId, in);
            case FETCHED -> {
                int writer = in.readInt();
                gathering.fetched(from, frameAttempt, snapshotId, writer, readChunk(in));
            }
            case FETCH_END -> gathering.fetchEnded(from, frameAttempt, snapshotId, in.readInt(), in.readBoolean());
            default -> cluster.log("ignoring snapshot message " + kind + " of job " + jobId + " from member " + from);
        }
    }

    private void acknowledge(int owner, int frameAttempt, long snapshotId) {
        cluster.send(owner, SnapshotFrames.header(jobId, ACK, frameAttempt, snapshotId, 0));
    }

    private void acknowledged(int frameAttempt, long snapshotId) {
        Runnable action = null;
        synchronized (this) {
            if (frameAttempt == attempt && snapshotId == sending && ++ackedFrames == sentFrames && onReplicated != null) {
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

    /** This member's latest committed snapshot, or the one it gathered to restore from if newer (a member that joined has none of its own). */
    @Override
    public long latestCommitted() {
        InMemorySnapshotStore gathered = gathering.restored();
        return gathered == null ? own.latestCommitted() : Math.max(own.latestCommitted(), gathered.latestCommitted());
    }

    /** The chunks the running attempt restores from: gathered from the cluster if it gathered any, else this member's own. */
    @Override
    public List<byte[]> read(long snapshotId, String vertex, int partition) {
        InMemorySnapshotStore gathered = gathering.restored();
        return gathered != null && gathered.holds(snapshotId) ? gathered.read(snapshotId, vertex, partition) : own.read(snapshotId, vertex, partition);
    }

    /** The copy this member keeps of {@code member}'s chunks (empty if it keeps none). */
    public SnapshotStore copyOf(int member) {
        return copies.getOrDefault(member, new InMemorySnapshotStore());
    }

    /** Bytes of this member's own state in a snapshot (for metrics). */
    @Override
    public long sizeInBytes(long snapshotId) {
        return own.sizeInBytes(snapshotId);
    }

    /** Where this member keeps {@code writer}'s chunks: its own, or its copy of another's (null: none). */
    private InMemorySnapshotStore keptFor(int writer) {
        return writer == cluster.self() ? own : copies.get(writer);
    }

    /**
     * Gathers, for the running attempt's restore, the chunks of committed snapshot {@code snapshotId}
     * that {@code writers} wrote, of the broadcast partition and of {@code partitions}
     * ({@link StateGathering#gather}).
     */
    public CompletableFuture<Long> gather(long snapshotId, int[] writers, int[] holders, int[] partitions) {
        return gathering.gather(snapshotId, writers, holders, partitions);
    }

    /** A member was lost: a writer's state it was sending for a restore is asked of the next holder. */
    void memberLost(int member) {
        gathering.memberLost(member);
    }
}
