package io.fournines.engine.cluster;

import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.dag.Dag;
import io.fournines.engine.dag.Vertex;
import io.fournines.engine.execution.CommittedSnapshot;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.execution.Partitioner;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.snapshot.SnapshotStore;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One job on this member of a cluster, over its executions. The first runs on every member. A job
 * with a guarantee follows the views a majority agrees on ({@link View}): when a view leaves out a
 * member the job runs on, or names another coordinator than the one that directs the job, that
 * view's coordinator tells the job's members in the view to run a new attempt from the latest
 * committed snapshot; each cancels its execution, gathers the state of the partitions it will own
 * from whoever keeps it, and starts the job again over them (the engine sees them as members
 * 0..n-1). A member the view takes in that does not run the job is taken in the same way after
 * {@code scaleOutDelay}: a restart on the members running it plus that one, which gathers all its
 * state from the others ({@link #joinRunning}). A job without a guarantee has nothing to restart
 * from: a lost member fails it, naming the member. A job with a guarantee whose execution fails on
 * some member (a processor's exception, say a Kafka commit timing out while the broker restarts),
 * or whose snapshot no longer completes ({@link ClusterSnapshots}), restarts from the latest
 * committed snapshot too, on the same members; after {@link #MAX_RESTARTS_WITHOUT_PROGRESS} such
 * restarts with no snapshot committed in between it fails for good, with the last cause.
 * A coordinator that did not direct the job (the old one was lost, or left) first hears from the
 * job's members in its view the latest snapshot any of them committed ({@link Handover}), and
 * restarts from that one; one that does not run the job takes it over, as a member joining it.
 * {@link #result()} completes when the job ends for good: failed or cancelled, or done, which is
 * the coordinator's word once every member's part of one attempt ended normally (a part that ended
 * here says so, {@link ControlKind#PART_DONE}, and waits): a member lost before its part ended
 * restarts the job like any other loss, so the job never passes for done without its output.
 */
public final class ClusterJob {

    private static final long STOP_WAIT_SECONDS = 5;
    private static final long GATHER_TIMEOUT_SECONDS = 60;
    private static final long START_WAIT_SECONDS = 30;
    /** Committed snapshots kept for the management API: a day at the default 1 s interval would be 86 400. */
    static final int SNAPSHOT_HISTORY = 1024;
    /** Restarts after failures or stalled snapshots in a row, no snapshot committed between them, before the job fails for good. */
    static final int MAX_RESTARTS_WITHOUT_PROGRESS = 3;
    /** A snapshot is given up on after this many intervals, or after {@link #MIN_SNAPSHOT_TIMEOUT}, whichever is longer. */
    static final int SNAPSHOT_TIMEOUT_INTERVALS = 10;
    static final Duration MIN_SNAPSHOT_TIMEOUT = Duration.ofSeconds(10);

    /** What a restart did, for the member's progress lines. */
    public record Restart(int attempt, long snapshotId, int[] members, long stateBytes, long restartNanos) {
    }

    /** Hears of each restart, on the recovery thread. */
    public interface Listener {
        void restarted(Restart restart);
    }

    private final Cluster cluster;
    private final long jobId;
    private final ProcessingGuarantee guarantee;
    private final Duration snapshotInterval;
    private final ExecutionModel execution;
    /** Null without a guarantee. */
    private final ClusterSnapshots snapshots;
    private final CompletableFuture<Void> result = new CompletableFuture<>();
    /** Restarts run here, one at a time, off the data I/O thread; and the delayed taking in of a member that joined. */
    private final ScheduledExecutorService recovery;
    private final Duration scaleOutDelay;
    /** Open once {@link #start} gave the engine and the DAGs. */
    private final CountDownLatch started = new CountDownLatch(1);
    /** This member joined a job already running elsewhere: it starts at the restart that takes it in. */
    private boolean joining;
    private Engine engine;
    private Supplier<Dag> dags;
    private Listener listener;
    private int attempt;
    private int[] members;
    private Job current;
    /** The attempt the current execution runs as. */
    private int currentAttempt;
    /** Snapshots committed by the executions before the current one. */
    private long committedBefore;
    /** The counters of the executions before the current one, summed. */
    private final Map<String, Long> metricsBefore = new TreeMap<>();
    /** The snapshots committed here over all executions, the newest {@link #SNAPSHOT_HISTORY}: the management API shows them. */
    private final ArrayDeque<CommittedSnapshot> snapshotHistory = new ArrayDeque<>();
    /** The newest snapshot {@link #drainCommittedSnapshots} handed on. */
    private long snapshotsHandedThrough = -1;
    /** The member whose word started the running attempt: the coordinator that directs it. */
    private int directedBy;
    /** On a coordinator taking the job over: the reports it waits for, the members it restarts on then, and why. */
    private Handover handover;
    private int[] handoverRunOn;
    private String handoverWhy;
    /** On the coordinator: restarts after failures since a snapshot last committed, and how many had committed then. */
    private int restartsWithoutProgress;
    private long committedAtLastRestart;
    /** On the coordinator: the members whose part of the running attempt ended normally. */
    private final Set<Integer> partsDone = new HashSet<>();
    /** The attempt every member's part of ended: the job is done (-1: not yet). */
    private int doneAttempt = -1;

    /**
     * A job whose snapshots are given up on after {@link #SNAPSHOT_TIMEOUT_INTERVALS} intervals, at
     * least {@link #MIN_SNAPSHOT_TIMEOUT}.
     *
     * @param scaleOutDelay how long after a lost member joins again the job is restarted to take it in
     */
    public ClusterJob(Cluster cluster, long jobId, ProcessingGuarantee guarantee, Duration snapshotInterval, int snapshotBackups,
                      Duration scaleOutDelay, ExecutionModel execution) {
        this(cluster, jobId, guarantee, snapshotInterval, defaultSnapshotTimeout(snapshotInterval), snapshotBackups, scaleOutDelay, execution);
    }

    /**
     * @param snapshotTimeout how long the coordinator waits for every member to save a snapshot before it restarts the job
     * @param execution       how every execution runs: continuous, or in batches its first member schedules
     */
    public ClusterJob(Cluster cluster, long jobId, ProcessingGuarantee guarantee, Duration snapshotInterval, Duration snapshotTimeout,
                      int snapshotBackups, Duration scaleOutDelay, ExecutionModel execution) {
        this.cluster = cluster;
        this.execution = execution;
        this.scaleOutDelay = scaleOutDelay;
        this.jobId = jobId;
        this.guarantee = guarantee;
        this.snapshotInterval = snapshotInterval;
        this.members = IntStream.range(0, cluster.size()).toArray();
        this.directedBy = cluster.coordinator();
        this.snapshots = guarantee == ProcessingGuarantee.NONE ? null
                : new ClusterSnapshots(cluster, jobId, snapshotBackups, snapshotInterval, snapshotTimeout, members,
                        this::restartAfterFailure);
        this.recovery = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fournines-recovery-job-" + jobId);
            t.setDaemon(true);
            return t;
        });
    }

    /** The execution id of an attempt: the job's id, the attempt in the top bits (attempt 0 keeps the job's id). */
    private long executionId(int a) {
        return jobId | ((long) a << 48);
    }

    /** This member (a lost one, joined again) takes part in a job the others run: it waits for the coordinator's restart. */
    public synchronized void joinRunning() {
        joining = true;
        // Not among the members until taken in: a loss before then is not this member's to act on.
        members = new int[0];
    }

    /**
     * Starts the first execution, on every member, with a DAG from {@code dags} (asked again for each
     * restart, so no processor state outlives its execution); on a member that is
     * {@link #joinRunning joining}, nothing until the restart that takes it in.
     */
    public void start(Engine engine, Supplier<Dag> dags, Listener listener) {
        synchronized (this) {
            this.engine = engine;
            this.dags = dags;
            this.listener = listener;
            if (!joining) {
                launch(dags.get(), SnapshotStore.NONE);
            }
        }
        started.countDown();
    }

    private synchronized void launch(Dag dag, long restoreFrom) {
        JobConfig config = (snapshots == null ? JobConfig.defaults()
                : new JobConfig(guarantee, snapshotInterval, snapshots.store(), restoreFrom)).executing(execution);
        Job job = engine.newJob(dag, config, cluster.jobNetwork(executionId(attempt), members));
        current = job;
        currentAttempt = attempt;
        int launched = attempt;
        job.future().whenComplete((ok, failure) -> executionEnded(launched, failure));
        if (snapshots != null) {
            snapshots.attach(job);
        }
    }

    private static Duration defaultSnapshotTimeout(Duration interval) {
        Duration intervals = interval.multipliedBy(SNAPSHOT_TIMEOUT_INTERVALS);
        return intervals.compareTo(MIN_SNAPSHOT_TIMEOUT) > 0 ? intervals : MIN_SNAPSHOT_TIMEOUT;
    }

    /**
     * An execution ended: unless a restart replaces it, so does the job. One with a guarantee that
     * failed here asks the coordinator for a restart instead, and waits for it.
     */
    private void executionEnded(int endedAttempt, Throwable failure) {
        synchronized (this) {
            if (endedAttempt != attempt) {
                return;
            }
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause != null && snapshots != null && !(cause instanceof CancellationException) && !result.isDone()) {
            cluster.log("job " + jobId + ": attempt " + endedAttempt + " failed here (" + cause + "); the coordinator restarts it");
            cluster.sendControl(cluster.coordinator(), ControlKind.PART_FAILED, jobId, endedAttempt + " " + oneLine(cause));
            return;
        }
        if (failure == null) {
            cluster.sendControl(cluster.coordinator(), ControlKind.PART_DONE, jobId, Integer.toString(endedAttempt));
        } else {
            result.completeExceptionally(failure);
        }
    }

    /** On the coordinator: {@code member}'s part of attempt {@code a} ended normally; once every member's has, the job is done. */
    private void partDone(int member, int a) {
        int[] tell;
        synchronized (this) {
            if (result.isDone() || a != attempt || cluster.coordinator() != cluster.self() || !partsDone.add(member)
                    || !Arrays.stream(members).allMatch(partsDone::contains)) {
                return;
            }
            tell = members.clone();
        }
        cluster.log("job " + jobId + ": the part of attempt " + a + " on every member (" + joined(tell) + ") ended; the job is done");
        for (int m : tell) {
            cluster.sendControl(m, ControlKind.JOB_DONE, jobId, Integer.toString(a));
        }
    }

    /**
     * Every member's part of attempt {@code a} ended: the job is done here too. A later attempt (begun
     * by a coordinator that had not heard it yet) has nothing left to do, and is stopped.
     */
    private void jobDone(int a) {
        Job running;
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            doneAttempt = a;
            running = current;
        }
        if (running != null && !running.isDone()) {
            running.cancel();
        }
        result.complete(null);
    }

    /** Completes when the job ends for good: normally, cancelled, or failed. */
    public CompletableFuture<Void> result() {
        return result;
    }

    /** The running execution (null before {@link #start}). */
    public synchronized Job current() {
        return current;
    }

    /** Restarts so far. */
    public synchronized int attempt() {
        return attempt;
    }

    /** Whether this member coordinates the cluster (the view it acts on names it). */
    public boolean coordinates() {
        return cluster.coordinator() == cluster.self();
    }

    public ClusterSnapshots snapshots() {
        return snapshots;
    }

    /** Snapshots committed over all executions. */
    public synchronized long committedSnapshotCount() {
        return committedBefore + (current == null ? 0 : current.committedSnapshotCount());
    }

    /** Hands {@code to} each snapshot committed here since the last call, over all executions, oldest first. */
    public synchronized void drainCommittedSnapshots(Consumer<CommittedSnapshot> to) {
        for (CommittedSnapshot s : snapshotHistory()) {
            if (s.id() > snapshotsHandedThrough) {
                to.accept(s);
                snapshotsHandedThrough = s.id();
            }
        }
    }

    /** The newest snapshots committed here over all executions (at most {@link #SNAPSHOT_HISTORY}), oldest first. */
    public synchronized List<CommittedSnapshot> snapshotHistory() {
        if (current != null) {
            current.drainCommittedSnapshots(this::remember);
        }
        return new ArrayList<>(snapshotHistory);
    }

    private void remember(CommittedSnapshot snapshot) {
        if (snapshotHistory.size() == SNAPSHOT_HISTORY) {
            snapshotHistory.poll();
        }
        snapshotHistory.add(snapshot);
    }

    /** The job's counters on this member over all its executions: what an earlier attempt dropped as late still counts. */
    public synchronized Map<String, Long> metrics() {
        Map<String, Long> all = new TreeMap<>(metricsBefore);
        if (current != null) {
            current.metrics().forEach((name, value) -> all.merge(name, value, Long::sum));
        }
        return all;
    }

    public void cancel() {
        result.cancel(false);
        Job job = current();
        if (job != null) {
            job.cancel();
        }
    }

    public void fail(Throwable cause) {
        result.completeExceptionally(cause);
        Job job = current();
        if (job != null) {
            job.fail(cause);
        }
    }

    /**
     * Called on the data I/O thread with {@link ControlKind#RESTART}, {@link ControlKind#PART_FAILED},
     * {@link ControlKind#RUNNING} and the snapshot messages.
     */
    public void onControl(int fromMember, ControlKind kind, String text) {
        if (kind == ControlKind.RUNNING) {
            int newline = text.indexOf('\n');
            onReport(fromMember, Handover.Report.parse(newline < 0 ? text : text.substring(0, newline)));
            return;
        }
        if (kind == ControlKind.PART_DONE) {
            partDone(fromMember, Integer.parseInt(text));
            return;
        }
        if (kind == ControlKind.JOB_DONE) {
            jobDone(Integer.parseInt(text));
            return;
        }
        if (kind == ControlKind.PART_FAILED) {
            int space = text.indexOf(' ');
            restartAfterFailure(Integer.parseInt(text.substring(0, space)), "member " + fromMember + "'s part failed: " + text.substring(space + 1));
            return;
        }
        if (kind != ControlKind.RESTART) {
            if (snapshots != null) {
                snapshots.onControl(fromMember, kind, text);
            }
            return;
        }
        String[] f = text.split(" ");
        int a = Integer.parseInt(f[0]);
        long snapshotId = Long.parseLong(f[1]);
        int[] runOn = parseMembers(f[2]);
        int[] writers = parseMembers(f[3]);
        synchronized (this) {
            if (a <= attempt || result.isDone()) {
                return;
            }
            attempt = a;
            members = runOn;
            directedBy = fromMember;
            partsDone.clear();
        }
        // At once, on this thread: the attempt's snapshot messages may come before the restart is done.
        snapshots.startAttempt(a, runOn, snapshotId, writers);
        long receivedNanos = System.nanoTime();
        recovery.execute(() -> restart(a, snapshotId, runOn, writers, receivedNanos));
    }

    /**
     * A member was lost (called on the data I/O thread). If the job runs on it and cannot restart (no
     * guarantee, or not started yet), it fails; otherwise the next view decides ({@link #onView}).
     */
    public void onMemberLost(int member, String cause) {
        synchronized (this) {
            if (result.isDone() || Arrays.stream(members).noneMatch(m -> m == member) || snapshots != null && current != null) {
                return;
            }
            String why = snapshots == null ? "it has no snapshots to restart from" : "it had not started";
            fail(new IllegalStateException("member " + cluster.self() + ": job " + jobId + " failed because it lost " + cause + " (" + why + ")"));
        }
    }

    /**
     * This member installed {@code view} (called on the data I/O thread). If it coordinates the view: a
     * job whose members the view does not all hold restarts on those it holds; if another
     * coordinator directed it, only after the handover ({@link Handover}); a member of the view that
     * does not run the job is taken in after the scale-out delay, sent {@code joinText} first
     * ({@link ControlKind#ADOPT}: the job it joins) unless it is null. If another member coordinates
     * it and did not direct the job, this member, running it, reports to it
     * ({@link ControlKind#RUNNING}, with {@code joinText}, so a coordinator that does not run the job
     * can take it over).
     */
    public void onView(View view, String joinText) {
        int[] running;
        boolean directed;
        Handover.Report own;
        int done;
        synchronized (this) {
            done = doneAttempt;
        }
        if (done >= 0) {
            passOnDone(view, done);
            return;
        }
        synchronized (this) {
            if (result.isDone() || snapshots == null || current == null) {
                return;
            }
            // Under this coordinator's handover the job's members are those it will restart on: one an
            // earlier view left out (say a coordinator paused, back before the handover ended) may have
            // left its part, and would never report; it is taken in anew like any member the job lacks.
            running = handover != null && view.coordinator() == cluster.self() ? handoverRunOn : members;
            directed = directedBy == view.coordinator();
            own = ownReport();
        }
        if (view.coordinator() != cluster.self()) {
            if (!directed && Arrays.stream(running).anyMatch(m -> m == cluster.self())) {
                cluster.sendControl(view.coordinator(), ControlKind.RUNNING, jobId, own.text() + "\n" + (joinText == null ? "" : joinText));
            }
            return;
        }
        int[] kept = Arrays.stream(running).filter(view::includes).toArray();
        if (!directed) {
            beginHandover(view, kept, kept, own, "this member coordinates the view of term " + view.term()
                    + (kept.length < running.length ? ", which leaves out members " + joined(Arrays.stream(running).filter(m -> !view.includes(m)).toArray()) : ""));
        } else if (kept.length < running.length) {
            restartOn(kept, "the view of term " + view.term() + " leaves out members " + joined(Arrays.stream(running).filter(m -> !view.includes(m)).toArray()));
        }
        view.members().stream().filter(m -> Arrays.stream(running).noneMatch(r -> r == m)).forEach(m -> takeIn(m, joinText));
    }

    /**
     * The job is done: the coordinator of {@code view} tells the view's members, another member tells
     * the coordinator. A member that missed the word (cut off when it was sent, or the coordinator
     * died sending it) would otherwise wait for it, or a new coordinator restart a finished job.
     */
    private void passOnDone(View view, int a) {
        String text = Integer.toString(a);
        if (view.coordinator() != cluster.self()) {
            cluster.sendControl(view.coordinator(), ControlKind.JOB_DONE, jobId, text);
            return;
        }
        view.members().stream().filter(m -> m != cluster.self()).forEach(m -> cluster.sendControl(m, ControlKind.JOB_DONE, jobId, text));
    }

    /** The members of the attempt this member runs or last ran. */
    public synchronized int[] members() {
        return members.clone();
    }

    private synchronized Handover.Report ownReport() {
        ClusterSnapshots.Committed c = snapshots.committed();
        return new Handover.Report(attempt, members, c.snapshotId(), c.writers());
    }

    /**
     * On the coordinator of {@code view}, which does not run the job (it left its part, say after
     * its own pause): {@code from} runs it, as {@code report} says. This member, joining the job,
     * takes it over: it restarts it on the job's members in the view and itself, from the latest
     * snapshot they report.
     */
    public void adopt(int from, Handover.Report report, View view) {
        synchronized (this) {
            attempt = report.attempt();
            members = report.members();
            directedBy = -1;
        }
        int[] kept = Arrays.stream(report.members()).filter(m -> view.includes(m) && m != cluster.self()).toArray();
        int[] runOn = IntStream.concat(Arrays.stream(kept), IntStream.of(cluster.self())).sorted().toArray();
        beginHandover(view, kept, runOn, null, "this member coordinates the view of term " + view.term() + " and takes over the job, which it did not run");
        onReport(from, report);
    }

    /** On the coordinator: waits for the reports of {@code awaited} (other than itself) at most the failure timeout, then restarts on {@code runOn}. */
    private void beginHandover(View view, int[] awaited, int[] runOn, Handover.Report own, String why) {
        int[] others = Arrays.stream(awaited).filter(m -> m != cluster.self()).toArray();
        Handover h = new Handover(others, own);
        synchronized (this) {
            handover = h;
            handoverRunOn = runOn;
            handoverWhy = why;
        }
        if (others.length == 0) {
            finishHandover(h);
            return;
        }
        cluster.log("job " + jobId + ": " + why + "; waiting for members " + joined(others) + " to report the latest snapshot they committed");
        recovery.schedule(() -> finishHandover(h), cluster.config().failureTimeoutMillis(), TimeUnit.MILLISECONDS);
    }

    /** On the coordinator: a member of the job reported what it runs ({@link ControlKind#RUNNING}). */
    private void onReport(int from, Handover.Report report) {
        Handover h;
        boolean complete;
        synchronized (this) {
            h = handover;
            if (h == null) {
                cluster.log("job " + jobId + ": member " + from + " reported snapshot " + report.committedId()
                        + " committed, after the handover; not waited for");
                return;
            }
            complete = h.add(from, report);
        }
        if (complete) {
            finishHandover(h);
        }
    }

    /** Restarts from the latest snapshot reported, once; members that did not report by now are named in the log. */
    private void finishHandover(Handover h) {
        int[] runOn;
        String why;
        synchronized (this) {
            if (handover != h || result.isDone()) {
                return;
            }
            handover = null;
            runOn = handoverRunOn;
            why = handoverWhy;
        }
        if (!h.missing().isEmpty()) {
            cluster.log("job " + jobId + ": members " + h.missing() + " did not report within the failure timeout; restarting from the latest snapshot the others committed");
        }
        Handover.Report latest = h.latest();
        if (latest != null) {
            snapshots.learnCommitted(new ClusterSnapshots.Committed(latest.committedId(), latest.writers()));
        }
        restartOn(runOn, why);
    }

    /**
     * On the coordinator: restarts the job on its members plus {@code member} after the scale-out
     * delay, if the view still holds it then; after the handover, if one is under way (its restart
     * must come first: it knows the latest snapshot committed).
     */
    private void takeIn(int member, String joinText) {
        recovery.schedule(() -> {
            int[] running;
            synchronized (this) {
                View now = cluster.view();
                if (result.isDone() || now == null || now.coordinator() != cluster.self() || !now.includes(member)
                        || Arrays.stream(members).anyMatch(m -> m == member)) {
                    return;
                }
                if (handover != null) {
                    takeIn(member, joinText);
                    return;
                }
                running = members;
            }
            if (joinText != null) {
                cluster.sendControl(member, ControlKind.ADOPT, jobId, joinText);
            }
            restartOn(IntStream.concat(Arrays.stream(running), IntStream.of(member)).sorted().toArray(), "taking member " + member + " in");
        }, scaleOutDelay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * On the coordinator: attempt {@code failedAttempt} failed on some member, or its snapshot
     * stalled: it restarts on the same members from the latest committed snapshot, unless it did so
     * {@link #MAX_RESTARTS_WITHOUT_PROGRESS} times already with no snapshot committed since, when it
     * fails for good.
     */
    private void restartAfterFailure(int failedAttempt, String why) {
        int[] running;
        String giveUp = null;
        synchronized (this) {
            // Under a handover, its restart replaces the failed attempt, from the latest snapshot committed.
            if (result.isDone() || failedAttempt != attempt || cluster.coordinator() != cluster.self() || handover != null) {
                return;
            }
            long committedNow = committedSnapshotCount();
            if (committedNow > committedAtLastRestart) {
                restartsWithoutProgress = 0;
            }
            committedAtLastRestart = committedNow;
            if (++restartsWithoutProgress > MAX_RESTARTS_WITHOUT_PROGRESS) {
                giveUp = "member " + cluster.self() + ": job " + jobId + " failed for good after " + MAX_RESTARTS_WITHOUT_PROGRESS
                        + " restarts with no snapshot committed in between; the last cause: " + why;
            }
            running = members;
        }
        if (giveUp != null) {
            cluster.log(giveUp);
            cluster.broadcastControl(ControlKind.FAIL, jobId, giveUp);
            fail(new IllegalStateException(giveUp));
            return;
        }
        restartOn(running, why);
    }

    /** On the coordinator: tells {@code newMembers} to run the next attempt from the latest committed snapshot, saying why in its log. */
    private void restartOn(int[] newMembers, String why) {
        if (cluster.coordinator() != cluster.self()) {
            return;
        }
        snapshots.whileNoCommitIsSent(committed -> {
            int next = attempt() + 1;
            String text = next + " " + committed.snapshotId() + " " + joined(newMembers) + " "
                    + joined(committed.snapshotId() == SnapshotStore.NONE ? newMembers : committed.writers());
            cluster.log("job " + jobId + ": restarting as attempt " + next + " on members " + joined(newMembers)
                    + (committed.snapshotId() == SnapshotStore.NONE ? " from the start (no snapshot committed yet)"
                    : " from snapshot " + committed.snapshotId()) + ": " + why);
            // This member first: its snapshots must be on the new attempt before the others report to it.
            onControl(cluster.self(), ControlKind.RESTART, text);
            for (int m : newMembers) {
                if (m != cluster.self()) {
                    cluster.sendControl(m, ControlKind.RESTART, jobId, text);
                }
            }
        });
    }

    /** On the recovery thread: this member's part of attempt {@code a} on {@code runOn}, from snapshot {@code snapshotId}. */
    private void restart(int a, long snapshotId, int[] runOn, int[] writers, long receivedNanos) {
        try {
            Job old;
            int oldAttempt;
            synchronized (this) {
                if (a != attempt) {
                    return;
                }
                old = current;
                oldAttempt = currentAttempt;
            }
            if (old != null) {
                stop(old);
                cluster.executionEnded(executionId(oldAttempt));
            } else if (!isJoining() || !started.await(START_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("it was told to restart before it started here");
            }
            Dag dag = dags.get();
            int position = Arrays.binarySearch(runOn, cluster.self());
            long bytes = snapshotId == SnapshotStore.NONE ? 0
                    : snapshots.store().gather(snapshotId, writers, runOn, partitionsOwned(dag, position, runOn.length))
                            .get(GATHER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            synchronized (this) {
                if (a != attempt || result.isDone()) {
                    return;
                }
                if (old != null) {
                    committedBefore += old.committedSnapshotCount();
                    old.drainCommittedSnapshots(this::remember);
                    old.metrics().forEach((name, value) -> metricsBefore.merge(name, value, Long::sum));
                }
                launch(dag, snapshotId);
            }
            listener.restarted(new Restart(a, snapshotId, runOn, bytes, System.nanoTime() - receivedNanos));
        } catch (CancellationException superseded) {
            // A newer attempt began while this one gathered: it does the restart.
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            fail(new IllegalStateException("member " + cluster.self() + ": job " + jobId + " could not restart as attempt " + a + ": " + cause, cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized boolean isJoining() {
        return joining;
    }

    /** Cancels the execution being replaced and waits for its tasklets to stop. */
    private static void stop(Job job) throws InterruptedException {
        job.cancel();
        try {
            job.future().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (CancellationException | ExecutionException | TimeoutException e) {
            // Cancelled as asked, or failed on the way: either way it is replaced.
        }
    }

    /** The partitions this member will own in some vertex of {@code dag}, at {@code position} of {@code count} members. */
    private int[] partitionsOwned(Dag dag, int position, int count) {
        Partitioner partitioner = new Partitioner(engine.config().partitionCount());
        TreeSet<Integer> owned = new TreeSet<>();
        for (Vertex v : dag.vertices()) {
            int parallelism = v.parallelismOn(engine.config().cooperativeThreads());
            for (int p : partitioner.partitionsOwnedBy(position * parallelism, (position + 1) * parallelism, count * parallelism)) {
                owned.add(p);
            }
        }
        return owned.stream().mapToInt(Integer::intValue).toArray();
    }

    public void close() {
        recovery.shutdownNow();
        cluster.executionEnded(executionId(attempt()));
        if (snapshots != null) {
            snapshots.close();
            cluster.jobEnded(jobId, snapshots.store());
        }
    }

    private static String oneLine(Throwable cause) {
        return String.valueOf(cause).replace('\n', ' ');
    }

    private static String joined(int[] members) {
        return Arrays.stream(members).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    private static int[] parseMembers(String list) {
        return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
