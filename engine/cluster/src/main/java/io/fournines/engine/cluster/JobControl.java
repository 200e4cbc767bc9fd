package io.fournines.engine.cluster;

import io.fournines.engine.execution.CommittedSnapshot;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The jobs of a static cluster, as one member sees them. A job submitted to any member goes to the
 * coordinator of the view a majority agreed on ({@link View}), which checks that its view holds
 * every member and tells all of them to start it at one wall-clock instant; each member then runs
 * its part, which the {@link JobRunner} makes from the job's description. A member whose part fails
 * fails the job everywhere with a cause that names the member. A job with a guarantee takes
 * snapshots the coordinator starts and commits on every member, and follows the views: a view
 * without one of its members restarts it on the others from the latest snapshot, and a member a
 * view takes back in joins it ({@link ClusterJob}); without a guarantee a lost member fails it. A
 * member left without a view for the failure timeout (a side without a majority) leaves its parts:
 * the majority runs the jobs, and takes this member back in when it is heard again.
 */
public final class JobControl implements Cluster.Listener {

    /** Members start a job this long after the coordinator decides, so all have set it up by then. */
    private static final long START_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** One job as this member sees it. */
    public static final class JobState {
        public final long id;
        public final Path dir;
        /** The START message's text: the start instant and the job's description, for a member that joins later. */
        final String startText;
        public volatile String state = "starting";
        public volatile String cause;
        /** This member's part ended because the others dropped it (it was paused): the job goes on without it. */
        volatile boolean left;
        public volatile JobPart part;
        /** This member's part of the job over its executions, from when the job is set up here. */
        volatile ClusterJob clusterJob;
        /** On the coordinator: how each member's part ended. */
        public final Map<Integer, String> members = new ConcurrentHashMap<>();

        /** This member's committed snapshots of the job, newest last (none before it is set up here). */
        public List<CommittedSnapshot> snapshotHistory() {
            ClusterJob job = clusterJob;
            return job == null ? List.of() : job.snapshotHistory();
        }

        JobState(long id, Path dir, String startText) {
            this.id = id;
            this.dir = dir;
            this.startText = startText;
        }
    }

    private final Path out;
    private final JobRunner runner;
    private final PrintStream stderr;
    private final Map<Long, JobState> jobs = new ConcurrentHashMap<>();
    private final AtomicLong jobCounter = new AtomicLong();
    private final int snapshotBackups;
    private final Duration scaleOutDelay;
    /** Ends the parts of a member that stays without a view. */
    private final ScheduledExecutorService viewless = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fournines-viewless");
        t.setDaemon(true);
        return t;
    });
    private volatile Cluster cluster;

    /**
     * @param snapshotBackups how many other members keep a copy of this member's snapshot state
     * @param scaleOutDelay   how long after a lost member joins again its jobs take it in
     */
    public JobControl(Path out, JobRunner runner, PrintStream stderr, int snapshotBackups, Duration scaleOutDelay) {
        this.out = out;
        this.runner = runner;
        this.snapshotBackups = snapshotBackups;
        this.scaleOutDelay = scaleOutDelay;
        this.stderr = stderr;
    }

    public void joined(Cluster cluster) {
        this.cluster = cluster;
    }

    public Cluster cluster() {
        return cluster;
    }

    /**
     * Checks the job with the runner and sends it to the coordinator; returns the job's id, unique in the
     * cluster (this member's index in the top bits).
     */
    public long submit(String description) throws InvalidJobException {
        JobRunner.JobSettings settings = runner.settings(description);
        if (settings.members() != cluster.size()) {
            throw new InvalidJobException("cluster.members: this cluster has " + cluster.size() + " members; is " + settings.members());
        }
        int coordinator = cluster.coordinator();
        if (coordinator < 0) {
            throw new NoCoordinatorException("member " + cluster.self() + " acts on no view (no majority of the " + cluster.size()
                    + " members agreed on a coordinator with it): submit the job again once it has one");
        }
        long id = ((long) cluster.self() << 40) | jobCounter.incrementAndGet();
        cluster.sendControl(coordinator, ControlKind.SUBMIT, id, description);
        return id;
    }

    /** A job was submitted to a member that has no coordinator to send it to. */
    public static final class NoCoordinatorException extends IllegalStateException {
        NoCoordinatorException(String message) {
            super(message);
        }
    }

    public JobState job(long jobId) {
        return jobs.get(jobId);
    }

    public Map<Long, JobState> jobs() {
        return new TreeMap<>(jobs);
    }

    @Override
    public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
        if (kind == ControlKind.RUNNING) {
            onRunning(fromMember, jobId, text);
            return;
        }
        if (kind.forClusterJob()) {
            JobState job = jobs.get(jobId);
            if (job != null && job.clusterJob != null) {
                job.clusterJob.onControl(fromMember, kind, text);
            }
            return;
        }
        switch (kind) {
            case SUBMIT -> plan(jobId, text);
            case START -> start(jobId, text, false);
            case ADOPT -> start(jobId, text, true);
            case FAIL -> {
                JobState job = jobs.get(jobId);
                if (job == null) {
                    job = jobs.computeIfAbsent(jobId, id -> new JobState(id, out.resolve("job-" + id), null));
                }
                failLocally(job, text);
            }
            case LEAVE -> {
                JobState job = jobs.get(jobId);
                if (job != null && !job.left && (job.state.equals("starting") || job.state.equals("running"))) {
                    leave(job, "member " + cluster.self() + ": left job " + jobId + ": it " + text + " without this member");
                }
            }
            case FINISHED -> {
                JobState job = jobs.get(jobId);
                if (job != null) {
                    job.members.put(fromMember, text);
                }
            }
            default -> stderr.println("member " + cluster.self() + ": ignoring control message " + kind + " from member " + fromMember);
        }
    }

    /**
     * On the coordinator: a member runs a job this coordinator did not direct. Its part here hears
     * the report; with no part here (it left the job, or never ran it), this member takes the job
     * over, joining it.
     */
    private void onRunning(int from, long jobId, String text) {
        int newline = text.indexOf('\n');
        View view = cluster.view();
        if (view == null || view.coordinator() != cluster.self()) {
            return;
        }
        JobState job = jobs.get(jobId);
        if (job != null && !job.left && job.clusterJob != null && (job.state.equals("starting") || job.state.equals("running"))) {
            job.clusterJob.onControl(from, ControlKind.RUNNING, text);
        } else if ((job == null || job.left) && newline > 0 && newline + 1 < text.length()) {
            Handover.Report report = Handover.Report.parse(text.substring(0, newline));
            start(jobId, text.substring(newline + 1), true);
            JobState adopted = jobs.get(jobId);
            if (adopted != null && adopted != job && adopted.clusterJob != null) {
                adopted.clusterJob.adopt(from, report, view);
            }
        }
    }

    /** On the coordinator: its view must hold every member; they all start at one instant. */
    private void plan(long jobId, String description) {
        View view = cluster.view();
        for (int m = 0; m < cluster.size(); m++) {
            if (view == null || view.coordinator() != cluster.self() || !view.includes(m)) {
                String why = cluster.lostCause(m) != null ? " is lost (" + cluster.lostCause(m) + ")"
                        : " is not in this coordinator's view (" + (view == null ? "it has none" : view) + ")";
                cluster.broadcastControl(ControlKind.FAIL, jobId, "job " + jobId + " cannot start: it needs all " + cluster.size()
                        + " members and " + cluster.config().describe(m) + why);
                return;
            }
        }
        long startEpochNanos;
        try {
            long given = runner.settings(description).startEpochNanos();
            startEpochNanos = given != 0 ? given : epochNanos() + START_DELAY_NANOS;
        } catch (InvalidJobException e) {
            cluster.broadcastControl(ControlKind.FAIL, jobId, "job " + jobId + " cannot start: " + e.getMessage());
            return;
        }
        cluster.broadcastControl(ControlKind.START, jobId, startEpochNanos + "\n" + description);
    }

    /** Sets the job up here and runs it from its start instant; {@code joining}: a lost member joined again, the job runs already. */
    private void start(long jobId, String text, boolean joining) {
        int newline = text.indexOf('\n');
        long startEpochNanos = Long.parseLong(text.substring(0, newline));
        String description = text.substring(newline + 1);
        JobRunner.JobSettings settings;
        try {
            settings = runner.settings(description);
        } catch (InvalidJobException e) {
            cluster.broadcastControl(ControlKind.FAIL, jobId, "member " + cluster.self() + " cannot run job " + jobId + ": " + e.getMessage());
            return;
        }
        if (joining) {
            JobState old = jobs.get(jobId);
            if (old != null && (old.state.equals("starting") || old.state.equals("running"))) {
                leave(old, "member " + cluster.self() + ": left job " + jobId + ": the coordinator takes this member in anew");
            }
        }
        // Joining, this member takes part anew: a part it was dropped from (it was paused) stays behind, in its own folder.
        JobState job = joining ? new JobState(jobId, joinedDir(jobId), text)
                : jobs.computeIfAbsent(jobId, id -> new JobState(id, out.resolve("job-" + id), text));
        jobs.put(jobId, job);
        job.clusterJob = new ClusterJob(cluster, jobId, settings.guarantee(), settings.snapshotInterval(), snapshotBackups, scaleOutDelay,
                settings.execution());
        if (joining) {
            job.clusterJob.joinRunning();
        }
        JobPart part;
        try {
            part = runner.part(description, new JobRunner.PartContext(job.clusterJob, cluster.self(), cluster.size(), startEpochNanos, joining, job.dir));
        } catch (InvalidJobException e) {
            job.clusterJob.close();
            cluster.broadcastControl(ControlKind.FAIL, jobId, "member " + cluster.self() + " cannot run job " + jobId + ": " + e.getMessage());
            return;
        }
        job.part = part;
        if (job.cause != null) {
            part.fail(new IllegalStateException(job.cause));
        }
        Thread thread = new Thread(() -> runJob(job, part, startEpochNanos), "job-" + jobId);
        thread.start();
    }

    /** Prepares the part, runs it from the start instant; a part that fails here fails the job on every member. */
    private void runJob(JobState job, JobPart run, long startEpochNanos) {
        int code;
        Throwable thrown = null;
        try {
            run.prepare();
            long wait = startEpochNanos - epochNanos();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (!job.left) {
                job.state = "running";
            }
            code = run.run(stderr);
        } catch (Exception e) {
            stderr.println("member " + cluster.self() + ": job " + job.id + " failed: " + e);
            code = 1;
            thrown = e;
        } finally {
            job.clusterJob.close();
        }
        job.state = job.left ? "left" : switch (code) {
            case 0 -> "completed";
            case 3 -> "stopped";
            default -> "failed";
        };
        Throwable failure = thrown != null ? thrown : run.failure();
        if (code == 1 && failure != null && job.cause == null) {
            job.cause = "member " + cluster.self() + ": " + failure;
            cluster.broadcastControl(ControlKind.FAIL, job.id, job.cause);
        }
        if (job.state.equals("completed")) {
            releaseStaleParts(job, cluster.view());
        }
        cluster.sendControl(cluster.coordinator(), ControlKind.FINISHED, job.id, job.state + (job.cause == null ? "" : ": " + job.cause));
    }

    /**
     * On the coordinator of {@code view}, for a job that completed here: the members of the view that
     * the last attempt left out (cut off, and back too late to be taken in) may still run an older
     * attempt's part that will never finish; they leave it. Told when the job completes and with
     * every view after, so one that comes back later hears it too.
     */
    private void releaseStaleParts(JobState job, View view) {
        if (view == null || view.coordinator() != cluster.self()) {
            return;
        }
        int[] ranIt = job.clusterJob.members();
        String how = "completed on members " + Arrays.toString(ranIt);
        view.members().stream().filter(m -> Arrays.stream(ranIt).noneMatch(r -> r == m))
                .forEach(m -> cluster.sendControl(m, ControlKind.LEAVE, job.id, how));
    }

    private void failLocally(JobState job, String cause) {
        if (job.cause == null) {
            job.cause = cause;
        }
        JobPart part = job.part;
        if (part != null) {
            part.fail(new IllegalStateException(cause));
        } else {
            job.state = job.left ? "left" : "failed";
        }
    }

    /**
     * Where a member that joined a running job writes: beside the files its lost predecessor wrote
     * (this member's folder is the same), so that neither overwrites the other.
     */
    private Path joinedDir(long jobId) {
        Path jobDir = out.resolve("job-" + jobId);
        for (int n = 1; ; n++) {
            Path dir = jobDir.resolve("joined-" + n);
            if (!Files.exists(dir)) {
                return dir;
            }
        }
    }

    /**
     * A view installed here: on its coordinator, each job with snapshots restarts without the members
     * the view left out and takes in those it holds that do not run the job; a member that runs a
     * job the view's coordinator did not direct reports it to that coordinator; the coordinator tells
     * members left out of a job that completed to leave a stale part ({@link #releaseStaleParts}). No view: unless one
     * comes within the failure timeout (a view changing takes a round trip), this member leaves its
     * parts; the majority's coordinator takes it in again.
     */
    @Override
    public void onViewChanged(View view) {
        if (view == null) {
            Cluster c = cluster;
            viewless.schedule(() -> {
                if (c.view() == null) {
                    leaveAll("no majority took this member in for " + c.config().failureTimeoutMillis() + " ms");
                }
            }, cluster.config().failureTimeoutMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        for (JobState job : jobs.values()) {
            ClusterJob clusterJob = job.clusterJob;
            if (job.state.equals("running") && clusterJob != null && job.startText != null) {
                clusterJob.onView(view, job.startText);
            } else if (job.state.equals("completed") && clusterJob != null) {
                releaseStaleParts(job, view);
                // A member of the last attempt that missed the coordinator's word that the job is done hears it now.
                clusterJob.onView(view, null);
            }
        }
    }

    @Override
    public void onMemberLost(int member, String cause) {
        Cluster c = cluster;
        int self = c == null ? -1 : c.self();
        for (JobState job : jobs.values()) {
            if (job.state.equals("starting") || job.state.equals("running")) {
                if (job.clusterJob != null) {
                    job.clusterJob.onMemberLost(member, cause);
                } else {
                    failLocally(job, "member " + self + ": job " + job.id + " failed because it lost " + cause);
                }
            }
        }
    }

    /**
     * The others dropped this member (it was paused): its part of every job ends here, without
     * failing the job on them (they run it on without this member, and take it back in once it has
     * joined again). The cause set first keeps the ending part from broadcasting its failure.
     */
    @Override
    public void onDropped(String cause) {
        leaveAll(cause);
    }

    private void leaveAll(String cause) {
        for (JobState job : jobs.values()) {
            if (job.state.equals("starting") || job.state.equals("running")) {
                leave(job, "member " + cluster.self() + ": left job " + job.id + ": " + cause);
            }
        }
    }

    private void leave(JobState job, String cause) {
        job.left = true;
        // Before the cause, not when the part has stopped (ending it and writing its files take a
        // while): one asking meanwhile would read the cause as the job's failure.
        job.state = "left";
        failLocally(job, cause);
    }

    /** Stops every running job and waits for it to write its files. */
    public void stopAll(long seconds) throws InterruptedException {
        for (JobState job : jobs.values()) {
            JobPart part = job.part;
            if (part != null) {
                part.requestStop();
            }
        }
        for (JobState job : jobs.values()) {
            JobPart part = job.part;
            if (part != null) {
                part.awaitFinished(seconds);
            }
        }
    }

    /** Now, as nanoseconds since the epoch: the clock start instants are given on. */
    public static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
