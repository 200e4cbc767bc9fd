package io.fournines.engine.cluster;

import io.fournines.engine.cluster.SnapshotFrames.Chunk;
import io.fournines.engine.snapshot.InMemorySnapshotStore;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import static io.fournines.engine.cluster.SnapshotFrames.CHUNK_ROOM;
import static io.fournines.engine.cluster.SnapshotFrames.FETCH;
import static io.fournines.engine.cluster.SnapshotFrames.FETCHED;
import static io.fournines.engine.cluster.SnapshotFrames.FETCH_END;
import static io.fournines.engine.cluster.SnapshotFrames.withChunk;
import static io.fournines.engine.snapshot.SnapshotStore.BROADCAST_PARTITION;

/**
 * Gathering one job's state for a restart after a loss, on one member: each survivor gathers the
 * chunks it will restore from, of each member that wrote the snapshot, from that member if it is
 * alive, else from the first survivor after it that keeps a copy, one holder per writer; only the
 * partitions the survivor will own, and the broadcast ones. A holder that is lost, or keeps no
 * committed copy, is passed over for the next. Also the holder's side: serving such a fetch.
 */
final class StateGathering {

    private final Cluster cluster;
    private final long jobId;
    private final int backups;
    /** Where this member keeps a writer's chunks: its own store, or its copy of another's (null: none). */
    private final IntFunction<InMemorySnapshotStore> keptFor;
    private int attempt;
    private Gathering gathering;
    /** The state gathered for the running attempt's restore; null when it restores nothing gathered. */
    private volatile InMemorySnapshotStore restored;

    StateGathering(Cluster cluster, long jobId, int backups, IntFunction<InMemorySnapshotStore> keptFor) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.backups = backups;
        this.keptFor = keptFor;
    }

    /** The job restarts as {@code attempt}: a gathering for an earlier one is abandoned, and what it gathered forgotten. */
    synchronized void startAttempt(int attempt) {
        this.attempt = attempt;
        restored = null;
        if (gathering != null) {
            gathering.done.cancel(false);
            gathering = null;
        }
    }

    /** What the running attempt restores from, if it gathered it; null otherwise. */
    InMemorySnapshotStore restored() {
        return restored;
    }

    /**
     * Gathers, for the running attempt's restore, the chunks of committed snapshot {@code snapshotId}
     * that {@code writers} wrote, of the broadcast partition and of {@code partitions}: each writer's
     * from one of {@code holders} (the attempt's members) that keeps them, trying the writer itself
     * first if it is one of them, then those after it in index order (where its backups are).
     * Completes with the bytes gathered once every writer's chunks are here, or fails naming a
     * writer no live member keeps a copy of.
     */
    CompletableFuture<Long> gather(long snapshotId, int[] writers, int[] holders, int[] partitions) {
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
            return StateGathering.wanted(partitions, partition);
        }
    }

    /** A restore needs the broadcast partition's chunks and those of the (sorted) partitions it will own. */
    private static boolean wanted(int[] partitions, int partition) {
        return partition == BROADCAST_PARTITION || Arrays.binarySearch(partitions, partition) >= 0;
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
            InMemorySnapshotStore kept = keptFor.apply(writer);
            boolean holds = holdsCommitted(kept, g.snapshotId);
            if (holds) {
                kept.forEachChunk(g.snapshotId, g::wanted, (v, p, c) -> stage(g, writer, holder, new Chunk(v, p, c)));
            }
            writerDone(g, writer, holder, holds);
            return;
        }
        ByteBuf request = SnapshotFrames.header(jobId, FETCH, g.attempt, g.snapshotId, 4 + 4 + 4 * g.partitions.length).writeInt(writer).writeInt(g.partitions.length);
        for (int p : g.partitions) {
            request.writeInt(p);
        }
        if (!cluster.send(holder, request)) {
            writerDone(g, writer, holder, false);
        }
    }

    /**
     * Whether {@code kept} holds {@code snapshotId}, committed. A restart names only a snapshot the
     * cluster committed, and the cluster commits one only once every member saved it and its backups
     * acknowledged their copies: a copy begun here is whole, and if its commit never came (the
     * coordinator died between two commit messages) it is committed here now.
     */
    private static boolean holdsCommitted(InMemorySnapshotStore kept, long snapshotId) {
        if (kept == null) {
            return false;
        }
        if (!kept.holds(snapshotId) && kept.begun(snapshotId) && kept.latestCommitted() < snapshotId) {
            kept.commit(snapshotId);
        }
        return kept.holds(snapshotId);
    }

    /** On the holder: sends what {@code requester} asked for, then whether it held it. */
    void serveFetch(int requester, int frameAttempt, long snapshotId, ByteBuf in) {
        int writer = in.readInt();
        int[] partitions = new int[in.readInt()];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = in.readInt();
        }
        InMemorySnapshotStore kept = keptFor.apply(writer);
        boolean holds = holdsCommitted(kept, snapshotId);
        if (holds) {
            kept.forEachChunk(snapshotId, p -> wanted(partitions, p), (vertex, partition, chunk) -> cluster.send(requester,
                    withChunk(SnapshotFrames.header(jobId, FETCHED, frameAttempt, snapshotId, 4 + CHUNK_ROOM).writeInt(writer),
                            new Chunk(vertex, partition, chunk))));
        }
        cluster.send(requester, SnapshotFrames.header(jobId, FETCH_END, frameAttempt, snapshotId, 4 + 1).writeInt(writer).writeBoolean(holds));
    }

    void fetched(int holder, int frameAttempt, long snapshotId, int writer, Chunk chunk) {
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

    void fetchEnded(int holder, int frameAttempt, long snapshotId, int writer, boolean held) {
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
