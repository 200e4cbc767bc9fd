package io.fournines.cluster;

import io.fournines.engine.job.Job;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One job's snapshots across the cluster. Each member tells the coordinator (the oldest live member)
 * once its part of the job and its store exist; from when all have, the coordinator times the
 * snapshots (so no member misses a start or a backup's chunks): it tells every member to start snapshot n; each member reports once its processors saved n and its
 * backups acknowledged n's chunks; when every live member has, the coordinator tells all to commit
 * n, and only then starts n+1. The member process routes the control kinds below to {@link #onControl}.
 */
public final class ClusterSnapshots implements AutoCloseable {

    /** Coordinator to all: start snapshot n (text: n). */
    public static final int START = 16;
    /** A member to the coordinator: it saved and replicated snapshot n. */
    public static final int SAVED = 17;
    /** Coordinator to all: every member saved snapshot n; commit it. */
    public static final int COMMIT = 18;
    /** A member to the coordinator: its part of the job and its snapshot store exist (text: 0). */
    public static final int ATTACHED = 19;

    private final Cluster cluster;
    private final long jobId;
    private final ReplicatedSnapshotStore store;
    private final Duration interval;
    private final ScheduledExecutorService timer;
    private Job job;
    /** A start that arrived before this member's part of the job existed. */
    private long pendingStart = -1;
    /** On the coordinator: the running snapshot (-1: none) and who saved it. */
    private long running = -1;
    private long lastStarted;
    private final Set<Integer> savedBy = new HashSet<>();
    /** On the coordinator: the members whose part of the job exists. */
    private final Set<Integer> attached = new HashSet<>();

    public ClusterSnapshots(Cluster cluster, long jobId, int backups, Duration interval) {
        this.cluster = cluster;
        this.jobId = jobId;
        this.store = cluster.snapshotStore(jobId, backups);
        this.interval = interval;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fournines-snapshots-job-" + jobId);
            t.setDaemon(true);
            return t;
        });
    }

    public static boolean handles(int kind) {
        return kind == START || kind == SAVED || kind == COMMIT || kind == ATTACHED;
    }

    public ReplicatedSnapshotStore store() {
        return store;
    }

    /** This member's part of the job started: it saves on the coordinator's word, and tells the coordinator it is there. */
    public void attach(Job job) {
        job.commitAfterClusterAgrees(id -> store.whenReplicated(id,
                () -> cluster.sendControl(cluster.coordinator(), SAVED, jobId, Long.toString(id))));
        long start;
        synchronized (this) {
            this.job = job;
            start = pendingStart;
        }
        if (start >= 0) {
            job.startSnapshot(start);
        }
        cluster.sendControl(cluster.coordinator(), ATTACHED, jobId, "0");
    }

    private void startNext() {
        long id;
        synchronized (this) {
            if (running >= 0) {
                return;
            }
            id = ++lastStarted;
            running = id;
            savedBy.clear();
        }
        cluster.broadcastControl(START, jobId, Long.toString(id));
    }

    /** Called on the I/O thread: a failure fails the job, never the connection. */
    public void onControl(int fromMember, int kind, String text) {
        try {
            handle(fromMember, kind, Long.parseLong(text));
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

    private void handle(int fromMember, int kind, long id) {
        switch (kind) {
            case START -> {
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
            case SAVED -> {
                if (savedEverywhere(fromMember, id)) {
                    cluster.broadcastControl(COMMIT, jobId, Long.toString(id));
                }
            }
            case ATTACHED -> {
                if (allAttached(fromMember)) {
                    long nanos = interval.toNanos();
                    timer.scheduleWithFixedDelay(this::startNext, nanos, nanos, TimeUnit.NANOSECONDS);
                }
            }
            case COMMIT -> {
                job.commitSnapshot(id);
                synchronized (this) {
                    if (running == id) {
                        running = -1;
                    }
                }
            }
            default -> throw new IllegalArgumentException("not a snapshot control message: " + kind);
        }
    }

    private synchronized boolean savedEverywhere(int member, long id) {
        return id == running && savedBy.add(member) && allLiveIn(savedBy);
    }

    /** True once, when the last live member attached. */
    private synchronized boolean allAttached(int member) {
        return attached.add(member) && allLiveIn(attached);
    }

    private boolean allLiveIn(Set<Integer> members) {
        for (int m = 0; m < cluster.size(); m++) {
            if ((m == cluster.self() || cluster.lostCause(m) == null) && !members.contains(m)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
