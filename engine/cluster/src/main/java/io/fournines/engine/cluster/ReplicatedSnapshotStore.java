package io.fournines.engine.cluster;

import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.fournines.engine.snapshot.SnapshotStore;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * One job's snapshots on a member of a cluster: this member's chunks stay in its heap (the primary
 * copy) and each goes, as a binary frame over the member connections, to the next {@code backups}
 * live members the job runs on, in index order, which keep it and acknowledge it. A snapshot is replicated on this
 * member once every frame it sent was acknowledged ({@link #whenReplicated}); the cluster commits
 * it only then, so a committed snapshot survives losing any {@code backups} members. Commits
 * apply to this member's copy and to the copies it keeps for others ({@link #copyOf}).
 *
 * <p>To restart a job after a loss, each survivor {@link #gather gathers} the chunks it will
 * restore from: of each member that wrote the snapshot, from that member if it is alive, else from
 * the first survivor after it that keeps a copy, one holder per writer; only the partitions the
 * survivor will own, and the broadcast ones. Every frame carries the job's attempt, so an
 * acknowledgement from before a restart never counts for a snapshot after it.
 */
public final class ReplicatedSnapshotStore implements SnapshotStore {

    private static final byte BEGIN = 1;
    private static final byte CHUNK = 2;
    private static final byte ACK = 3;
    /** A survivor to a holder: send me writer w's chunks of these partitions. */
    private static final byte FETCH = 4;
    /** The holder: one of them. */
    private static final byte FETCHED = 5;
    /** The holder: that was all (1), or it holds no committed copy (0). */
    private static final byte FETCH_END = 6;
    /** Room to reserve in a frame's header buffer for a chunk's partition and vertex name (it grows if needed). */
    private static final int CHUNK_ROOM = 64;

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
    /** The state gathered for the running attempt's restore; null when it restores nothing gathered. */
    private volatile InMemorySnapshotStore restored;
    private Gathering gathering;

    ReplicatedSnapshotStore(Cluster cluster, long jobId, int backups) {
        if (backups < 0) {
            throw new IllegalArgumentException("snapshot backups must be 0 or more; is " + backups);
        }
        this.cluster = cluster;
        this.jobId = jobId;
        this.backups = backups;
        this.members = IntStream.range(0, cluster.size()).toArray();
    }

    /** The job restarts on {@code members}: frames of earlier attempts are ignored from now on. */
    public synchronized void startAttempt(int attempt, int[] members) {
        this.attempt = attempt;
        this.members = members.clone();
        sending = NONE;
        onReplicated = null;
        restored = null;
        if (gathering != null) {
            gathering.done.cancel(false);
            gathering = null;
        }
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
        return frame(kind, attempt, snapshotId, extra);
    }

    private ByteBuf frame(byte kind, int frameAttempt, long snapshotId, int extra) {
        return Unpooled.buffer(1 + 8 + 1 + 4 + 8 + extra).writeByte(Frames.SNAPSHOT).writeLong(jobId).writeByte(kind)
                .writeInt(frameAttempt).writeLong(snapshotId);
    }

    /** {@code header}, then one chunk: its partition, its vertex, its bytes (not copied). */
    private static ByteBuf withChunk(ByteBuf header, Chunk chunk) {
        byte[] name = chunk.vertex().getBytes(StandardCharsets.UTF_8);
        header.writeInt(chunk.partition()).writeShort(name.length).writeBytes(name);
        return Unpooled.wrappedBuffer(header, Unpooled.wrappedBuffer(chunk.bytes()));
    }

    /** The chunk {@link #withChunk} wrote, read from the rest of the frame. */
    private static Chunk readChunk(ByteBuf in) {
        int partition = in.readInt();
        String vertex = in.readCharSequence(in.readUnsignedShort(), StandardCharsets.UTF_8).toString();
        byte[] bytes = new byte[in.readableBytes()];
        in.readBytes(bytes);
        return new Chunk(vertex, partition, bytes);
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
            case FETCH -> serveFetch(from, frameAttempt, snapshotId, in);
            case FETCHED -> {
                int writer = in.readInt();
                fetched(from, frameAttempt, snapshotId, writer, readChunk(in));
            }
            case FETCH_END -> fetchEnded(from, frameAttempt, snapshotId, in.readInt(), in.readBoolean());
            default -> cluster.log("ignoring snapshot message " + kind + " of job " + jobId + " from member " + from);
        }
    }

    private void acknowledge(int owner, int frameAttempt, long snapshotId) {
        cluster.send(owner, frame(ACK, frameAttempt, snapshotId, 0));
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
        InMemorySnapshotStore gathered = restored;
        return gathered == null ? own.latestCommitted() : Math.max(own.latestCommitted(), gathered.latestCommitted());
    }

    /** The chunks the running attempt restores from: gathered from the cluster if it gathered any, else this member's own. */
    @Override
    public List<byte[]> read(long snapshotId, String vertex, int partition) {
        InMemorySnapshotStore gathered = restored;
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

    // Restoring after a loss.

    /**
     * Gathers, for the running attempt's restore, the chunks of committed snapshot {@code snapshotId}
     * that {@code writers} wrote, of the broadcast partition and of {@code partitions}: each writer's
     * from one of {@code holders} (the attempt's members) that keeps them, trying the writer itself
     * first if it is one of them, then those after it in index order (where its backups are).
     * Completes with the bytes gathered once every writer's chunks are here, or fails naming a
     * writer no live member keeps a copy of.
     */
    public CompletableFuture<Long> gather(long snapshotId, int[] writers, int[] holders, int[] partitions) {
        Gathering g;
        synchronized (this) {
            g = new Gathering(attempt, snapshotId, partitions);
            gathering = g;
            for (int w : writers) {
                g.holders.put(w, candidates(w, holders));
            }
        }
        for (int w : writers) {
            tryNextHolder(g, w);
        }
        return g.done;
    }

    /** Which of {@code holders} may keep {@code writer}'s chunks, most likely first: the writer itself, then those after it. */
    private static List<Integer> candidates(int writer, int[] holders) {
        List<Integer> list = new ArrayList<>();
        if (Arrays.binarySearch(holders, writer) >= 0) {
            list.add(writer);
        }
        int start = 0;
        while (start < holders.length && holders[start] <= writer) {
            start++;
        }
        for (int i = 0; i < holders.length; i++) {
            int m = holders[(start + i) % holders.length];
            if (m != writer) {
                list.add(m);
            }
        }
        return list;
    }

    /** One restore's gathering: by writer, the holders left to try (the first is being asked) and what it sent so far. */
    private static final class Gathering {
        final int attempt;
        final long snapshotId;
        final int[] partitions;
        final Map<Integer, List<Integer>> holders = new HashMap<>();
        final Map<Integer, List<Chunk>> staged = new HashMap<>();
        final InMemorySnapshotStore view = new InMemorySnapshotStore();
        final CompletableFuture<Long> done = new CompletableFuture<>();
        long bytes;

        Gathering(int attempt, long snapshotId, int[] partitions) {
            this.attempt = attempt;
            this.snapshotId = snapshotId;
            this.partitions = partitions;
            view.begin(snapshotId);
        }

        boolean wanted(int partition) {
            return ReplicatedSnapshotStore.wanted(partitions, partition);
        }
    }

    /** A restore needs the broadcast partition's chunks and those of the (sorted) partitions it will own. */
    private static boolean wanted(int[] partitions, int partition) {
        return partition == BROADCAST_PARTITION || Arrays.binarySearch(partitions, partition) >= 0;
    }

    private record Chunk(String vertex, int partition, byte[] bytes) {
    }

    private void tryNextHolder(Gathering g, int writer) {
        int holder;
        synchronized (this) {
            if (gathering != g || g.done.isDone()) {
                return;
            }
            List<Integer> left = g.holders.get(writer);
            if (left.isEmpty()) {
                g.done.completeExceptionally(new IllegalStateException("snapshot " + g.snapshotId + " of job " + jobId
                        + ": no live member keeps the state member " + writer + " wrote (snapshot backups: " + backups + ")"));
                return;
            }
            holder = left.get(0);
            g.staged.put(writer, new ArrayList<>());
        }
        if (holder == cluster.self()) {
            InMemorySnapshotStore kept = keptFor(writer);
            boolean holds = kept != null && kept.holds(g.snapshotId);
            if (holds) {
                kept.forEachChunk(g.snapshotId, g::wanted, (v, p, c) -> stage(g, writer, holder, new Chunk(v, p, c)));
            }
            writerDone(g, writer, holder, holds);
            return;
        }
        ByteBuf request = frame(FETCH, g.attempt, g.snapshotId, 4 + 4 + 4 * g.partitions.length).writeInt(writer).writeInt(g.partitions.length);
        for (int p : g.partitions) {
            request.writeInt(p);
        }
        if (!cluster.send(holder, request)) {
            writerDone(g, writer, holder, false);
        }
    }

    /** On the holder: sends what {@code requester} asked for, then whether it held it. */
    private void serveFetch(int requester, int frameAttempt, long snapshotId, ByteBuf in) {
        int writer = in.readInt();
        int[] partitions = new int[in.readInt()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = in.readInt();
        }
        InMemorySnapshotStore kept = keptFor(writer);
        boolean holds = kept != null && kept.holds(snapshotId);
        if (holds) {
            kept.forEachChunk(snapshotId, p -> wanted(partitions, p), (vertex, partition, chunk) -> cluster.send(requester,
                    withChunk(frame(FETCHED, frameAttempt, snapshotId, 4 + CHUNK_ROOM).writeInt(writer), new Chunk(vertex, partition, chunk))));
        }
        cluster.send(requester, frame(FETCH_END, frameAttempt, snapshotId, 4 + 1).writeInt(writer).writeBoolean(holds));
    }

    private void fetched(int holder, int frameAttempt, long snapshotId, int writer, Chunk chunk) {
        Gathering g;
        synchronized (this) {
            g = gathering;
        }
        if (g != null && g.attempt == frameAttempt && g.snapshotId == snapshotId) {
            stage(g, writer, holder, chunk);
        }
    }

    private synchronized void stage(Gathering g, int writer, int holder, Chunk chunk) {
        List<Integer> left = g.holders.get(writer);
        if (left != null && !left.isEmpty() && left.get(0) == holder) {
            g.staged.get(writer).add(chunk);
        }
    }

    private void fetchEnded(int holder, int frameAttempt, long snapshotId, int writer, boolean held) {
        Gathering g;
        synchronized (this) {
            g = gathering;
        }
        if (g != null && g.attempt == frameAttempt && g.snapshotId == snapshotId) {
            writerDone(g, writer, holder, held);
        }
    }

    /**
     * {@code holder} sent all it keeps of {@code writer}'s state ({@code held}), or keeps none: the
     * staged chunks go into the view, or the next holder is asked.
     */
    private void writerDone(Gathering g, int writer, int holder, boolean held) {
        synchronized (this) {
            List<Integer> left = g.holders.get(writer);
            if (gathering != g || left == null || left.isEmpty() || left.get(0) != holder) {
                return;
            }
            if (held) {
                for (Chunk c : g.staged.remove(writer)) {
                    g.view.write(g.snapshotId, c.vertex(), c.partition(), c.bytes());
                    g.bytes += c.bytes().length;
                }
                g.holders.remove(writer);
                if (g.holders.isEmpty()) {
                    g.view.commit(g.snapshotId);
                    restored = g.view;
                    g.done.complete(g.bytes);
                }
                return;
            }
            left.remove(0);
        }
        tryNextHolder(g, writer);
    }

    /** A member was lost: a writer's state it was sending is asked of the next holder. */
    void memberLost(int member) {
        Gathering g;
        List<Integer> waitingOn = new ArrayList<>();
        synchronized (this) {
            g = gathering;
            if (g == null) {
                return;
            }
            g.holders.forEach((writer, left) -> {
                if (!left.isEmpty() && left.get(0) == member) {
                    waitingOn.add(writer);
                }
            });
        }
        for (int writer : waitingOn) {
            writerDone(g, writer, member, false);
        }
    }
}
