package io.fournines.engine.cluster;

import io.fournines.engine.job.Job;
import io.fournines.engine.snapshot.SnapshotStore;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One job's snapshots across the cluster. Each member tells the coordinator (the oldest live member)
 * once its part of the job and its store exist; from when all have, the coordinator times the
 * snapshots (so no member misses a start or a backup's chunks): it tells every member to start
 * snapshot n; each member reports once its processors saved n and its backups acknowledged n's
 * chunks; when every member the job runs on has, the coordinator decides n committed and tells all;
 * each records the decision and says so, and only once all have does the coordinator tell all to
 * commit n (their sinks publish n's output), and then starts n+1. So if any member published n's
 * output, every member alive then knows n was committed: a coordinator that dies in the middle
 * leaves survivors that restart from n, not from an older snapshot whose replay would publish n's
 * output twice ({@link Handover}). The member routes the snapshot {@link ControlKind}s to
 * {@link #onControl}.
 *
 * <p>A job restarted after a loss is a new attempt on fewer members ({@link #startAttempt}): every
 * message names its attempt, and one of an earlier attempt is ignored, so a snapshot that was
 * running when a member died is never committed.
 *
 * <p>A snapshot that every member has not saved within the timeout is given up on: the coordinator
 * counts it aborted and tells {@code stalled}, which restarts the job from the latest committed
 * snapshot (the engine takes one snapshot at a time, and a barrier stuck in one member's
 * execution is only cleared by replacing the execution). Nothing stalls silently: the later
 * snapshots and the transactional output would wait on it for good.
 */
public final class ClusterSnapshots implements AutoCloseable {

    /** On the coordinator: hears that the running snapshot of {@code attempt} was given up on, and why (on the timer's thread). */
    @FunctionalInterface
    public interface Stalled {
        void gaveUp(int attempt, String why);
    }

    private final Cluster cluster;
    private final long jobId;
    private final ReplicatedSnapshotStore store;
    private final Duration interval;
    private final Duration timeout;
    private final Stalled stalled;
    private final ScheduledExecutorService timer;
    private int attempt;
    /** The members the running attempt runs on. */
    private int[] members;
    private Job job;
    /** A start that arrived before this member's part of the job existed. */
    private long pendingStart = -1;
    /** On the coordinator: the running snapshot (-1: none), since when, and who saved it. */
    private long running = -1;
    private long runningSinceNanos;
    /** On the coordinator: the running snapshot was given up on already. */
    private boolean givenUp;
    /** On the coordinator: snapshots given up on after the timeout, over all attempts. */
    private long aborted;
    /** When this member last committed a snapshot, over all attempts; made: when the job was set up here. */
    private long lastCommittedAtNanos = System.nanoTime();
    private long lastStarted;
    private final Set<Integer> savedBy = new HashSet<>();
    /** On the coordinator: the members that recorded its decision to commit the running snapshot. */
    private final Set<Integer> recordedBy = new HashSet<>();
    /** On the coordinator: the members whose part of the running attempt exists. */
    private final Set<Integer> attached = new HashSet<>();
    private boolean allAttached;
    private boolean timerStarted;
    /**
     * On the coordinator: held while it decides to commit a snapshot or tells the members to, and
     * while it plans a restart ({@link #whileNoCommitIsSent}), so a restart names every snapshot
     * decided before it, and no commit of the old attempt follows it.
     */
    private final Object coordination = new Object();
    /**
     * The latest snapshot decided committed (or restored from), whether or not the members committed
     * it yet, and the members that wrote it: updated together. A restart from it publishes its output.
     */
    private Committed committed = new Committed(SnapshotStore.NONE, new int[0]);

    /**
     * @param timeout how long the coordinator waits for every member to save a snapshot
     * @param stalled told, on the coordinator, why a snapshot was given up on
     */
    public ClusterSnapshots(Cluster cluster, long jobId, int backups, Duration interval, Duration timeout, int[] members,
                            Stalled stalled) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.store = cluster.snapshotStore(jobId, backups);
        this.interval = interval;
        this.timeout = timeout;
        this.stalled = stalled;
        this.members = members.clone();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fournines-snapshots-job-" + jobId);
            t.setDaemon(true);
            return t;
        });
    }

    public ReplicatedSnapshotStore store() {
        return store;
    }

    /**
     * The job restarts as {@code attempt} on {@code members} from snapshot {@code restoredFrom},
     * which {@code writers} wrote: the part of the job that ran here is detached, and the next
     * snapshot follows the restored one.
     */
    public void startAttempt(int attempt, int[] members, long restoredFrom, int[] writers) {
        synchronized (this) {
            this.attempt = attempt;
            this.members = members.clone();
            job = null;
            pendingStart = -1;
            running = -1;
            givenUp = false;
            lastStarted = Math.max(restoredFrom, 0);
            committed = new Committed(restoredFrom, writers.clone());
            savedBy.clear();
            recordedBy.clear();
            attached.clear();
            allAttached = false;
        }
        store.startAttempt(attempt, members);
    }

    /**
     * On the coordinator: runs {@code plan} with the latest committed snapshot ({@link
     * SnapshotStore#NONE} if none) and the members that wrote it, while no commit is being sent.
     */
    public void whileNoCommitIsSent(Consumer<Committed> plan) {
        synchronized (coordination) {
            Committed latest;
            synchronized (this) {
                latest = committed;
            }
            plan.accept(latest);
        }
    }

    /** A committed snapshot and the members that wrote it. */
    public record Committed(long snapshotId, int[] writers) {
    }

    /** The latest snapshot this member knows was decided committed (or restored from), and the members that wrote it. */
    public synchronized Committed committed() {
        return committed;
    }

    /**
     * On a coordinator taking the job over ({@link Handover}): a member committed {@code later}
     * before the old coordinator's commit messages stopped; restarts are planned from it if it is
     * newer than this member's latest.
     */
    synchronized void learnCommitted(Committed later) {
        if (later.snapshotId() > committed.snapshotId()) {
            committed = later;
        }
    }

    /** This member's part of the running attempt started: it saves on the coordinator's word, and tells the coordinator it is there. */
    public void attach(Job job) {
        int a;
        synchronized (this) {
            a = attempt;
        }
        job.commitAfterClusterAgrees(id -> store.whenReplicated(id,
                () -> cluster.sendControl(cluster.coordinator(), ControlKind.SNAPSHOT_SAVED, jobId, a + " " + id)));
        long start;
        synchronized (this) {
            if (a != attempt) {
                return;
            }
            this.job = job;
            start = pendingStart;
        }
        if (start >= 0) {
            job.startSnapshot(start);
        }
        cluster.sendControl(cluster.coordinator(), ControlKind.ATTACHED, jobId, a + " 0");
    }

    /** On the coordinator: snapshots given up on after the timeout, over all attempts. */
    public synchronized long abortedCount() {
        return aborted;
    }

    /** How long ago this member last committed a snapshot, over all attempts (none yet: since the job was set up here). */
    public synchronized long nanosSinceLastCommit() {
        return System.nanoTime() - lastCommittedAtNanos;
    }

    /** On the coordinator's timer: starts the next snapshot, or gives up on the running one once it is past the timeout. */
    private void startNext() {
        if (!startNextIfIdle()) {
            String why;
            int a;
            synchronized (this) {
                if (running < 0 || givenUp || System.nanoTime() - runningSinceNanos < timeout.toNanos()) {
                    return;
                }
                givenUp = true;
                aborted++;
                a = attempt;
                why = "snapshot " + running + " of attempt " + attempt + " aborted: member(s) "
                        + Arrays.stream(members).filter(m -> !savedBy.contains(m)).boxed().toList() + " did not save it within "
                        + timeout.toMillis() + " ms";
            }
            cluster.log("job " + jobId + ": " + why);
            stalled.gaveUp(a, why);
        }
    }

    /** Starts the next snapshot if none runs and every member attached; false if it did not. */
    private boolean startNextIfIdle() {
        String text;
        int[] to;
        synchronized (this) {
            if (running >= 0 || !allAttached) {
                return false;
            }
            long id = ++lastStarted;
            running = id;
            runningSinceNanos = System.nanoTime();
            text = attempt + " " + id;
            savedBy.clear();
            recordedBy.clear();
            to = members.clone();
        }
        sendTo(to, ControlKind.SNAPSHOT_START, text);
        return true;
    }

    /** Called on the I/O thread: a failure fails the job, never the connection. */
    public void onControl(int fromMember, ControlKind kind, String text) {
        try {
            int space = text.indexOf(' ');
            int messageAttempt = Integer.parseInt(text.substring(0, space));
            synchronized (this) {
                if (messageAttempt != attempt) {
                    return;
                }
            }
            handle(fromMember, kind, Long.parseLong(text.substring(space + 1)));
        } catch (RuntimeException e) {
            Job j;
            synchronized (this) {
                j = job;
            }
            cluster.log("job " + jobId + ": snapshot message " + kind + " (" + text + ") from member " + fromMember + " failed: " + e);
            if (j != null) {
                j.fail(e);
            }
        }
    }

    private void handle(int fromMember, ControlKind kind, long id) {
        switch (kind) {
            case SNAPSHOT_START -> {
                Job j;
                synchronized (this) {
                    j = job;
                    if (j == null) {
                        pendingStart = id;
                    }
                }
                if (j != null) {
                    j.startSnapshot(id);
                }
            }
            // Decided under one lock with restarts: a restart planned in between would otherwise
            // restart from n-1 while the members go on to commit n.
            case SNAPSHOT_SAVED -> onceEveryMemberHas(ControlKind.SNAPSHOT_DECIDED, id, () -> {
                int[] to = savedEverywhere(fromMember, id);
                if (to != null) {
                    committed = new Committed(id, to);
                }
                return to;
            });
            case SNAPSHOT_DECIDED -> {
                // Never from a coordinator this member no longer follows: it may have reported its
                // latest decision to the new one already, which restarts from that.
                if (fromMember != cluster.coordinator()) {
                    cluster.log("job " + jobId + ": the decision to commit snapshot " + id + " came from member " + fromMember
                            + ", which no longer coordinates; not recorded");
                    return;
                }
                String text;
                synchronized (this) {
                    if (id > committed.snapshotId()) {
                        committed = new Committed(id, members.clone());
                    }
                    text = attempt + " " + id;
                }
                cluster.sendControl(fromMember, ControlKind.SNAPSHOT_RECORDED, jobId, text);
            }
            case SNAPSHOT_RECORDED -> onceEveryMemberHas(ControlKind.SNAPSHOT_COMMIT, id, () -> recordedEverywhere(fromMember, id));
            case ATTACHED -> startTimerOnceAllAttached(fromMember);
            case SNAPSHOT_COMMIT -> {
                Job j;
                synchronized (this) {
                    j = job;
                }
                j.commitSnapshot(id);
                // Only then may the coordinator's timer start the next one.
                synchronized (this) {
                    lastCommittedAtNanos = System.nanoTime();
                    if (running == id) {
                        running = -1;
                    }
                }
            }
            default -> throw new IllegalArgumentException("not a snapshot control message: " + kind);
        }
    }

    /** The members to tell of the decision, once every member of the attempt saved snapshot {@code id}; else null. */
    private synchronized int[] savedEverywhere(int member, long id) {
        return id == running && savedBy.add(member) && allIn(savedBy) ? members.clone() : null;
    }

    /** The members to tell to commit, once every member of the attempt recorded the decision to commit snapshot {@code id}; else null. */
    private synchronized int[] recordedEverywhere(int member, long id) {
        return id == running && allIn(savedBy) && recordedBy.add(member) && allIn(recordedBy) ? members.clone() : null;
    }

    /**
     * On the coordinator, under the lock it plans restarts under: sends {@code next} about snapshot
     * {@code id} to the members {@code everyone} returns (run holding this object's lock: the
     * attempt's members once all of them have reported, else null).
     */
    private void onceEveryMemberHas(ControlKind next, long id, Supplier<int[]> everyone) {
        synchronized (coordination) {
            String text;
            int[] to;
            synchronized (this) {
                to = everyone.get();
                text = attempt + " " + id;
            }
            sendTo(to, next, text);
        }
    }

    private void sendTo(int[] to, ControlKind kind, String text) {
        if (to != null) {
            for (int m : to) {
                cluster.sendControl(m, kind, jobId, text);
            }
        }
    }

    private synchronized void startTimerOnceAllAttached(int member) {
        attached.add(member);
        if (allAttached || !allIn(attached)) {
            return;
        }
        allAttached = true;
        if (!timerStarted) {
            timerStarted = true;
            long nanos = interval.toNanos();
            timer.scheduleWithFixedDelay(this::startNext, nanos, nanos, TimeUnit.NANOSECONDS);
        }
    }

    private boolean allIn(Set<Integer> reported) {
        return Arrays.stream(members).allMatch(reported::contains);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
