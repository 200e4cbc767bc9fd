package io.fournines.engine.cluster;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

/**
 * This member's connections to the others: two TCP connections per member pair (the younger member
 * dials the lower-indexed), each authenticated by HMAC challenge-response over the shared secret.
 * The data plane's ({@link Plane}) carries the distributed edges' packets and credit, snapshot state
 * and job control messages, which it routes to the executions, snapshot stores and listener they
 * are for, on the data I/O thread. The view plane's carries heartbeats and view messages on a thread
 * of its own, which also judges silences and runs the agreement: a restore's megabytes in a socket
 * or on the data thread never delay a heartbeat. A member whose connection of either plane closes,
 * or that stays silent on the view plane for the failure timeout ({@link FailureDetector}), is lost:
 * the listener hears of it once. The listener is called on the data I/O thread only. The member
 * list is static, but a lost member's index may join again (its process started anew, or a
 * partition healed): the higher-indexed members dial it again until it answers, the lower ones take
 * its call.
 *
 * <p>Who coordinates, and who runs jobs, is decided by a majority of the configured members: the
 * {@link View} of the current term ({@link ViewAgreement}), whose votes and installations travel in
 * {@link Frames#VIEW} frames and whose term and coordinator every heartbeat carries. The listener
 * hears of each view this member installs, and that it has none (a side without a majority, or
 * one that lost its coordinator): it must not act on the old one. Control frames carry the
 * sender's view term, and the coordinator's commands of another view than this member's are
 * dropped.
 *
 * <p>A member that was itself paused past the failure timeout must not take the others' silence
 * for their loss, or it would carry on with the job alone beside them. It notices the gap in its
 * pause sentinel's ticks ({@link FailureDetector}) before it acts on any loss, closes its
 * connections, tells the listener it was dropped, and joins again as a restarted process would.
 */
public final class Cluster implements AutoCloseable {

    /** What the member that owns the cluster hears. Called on the data I/O thread: must not block. */
    public interface Listener {
        void onControl(int fromMember, ControlKind kind, long jobId, String text);

        void onMemberLost(int member, String cause);

        /**
         * This member installed {@code view} (its coordinator and members act on it), or has none
         * ({@code null}): it acts on no view until a majority takes it in again.
         */
        default void onViewChanged(View view) {
        }

        /**
         * This member was paused long enough for the others to drop it (the cause says how long):
         * it is no longer part of any running job, and it is joining again.
         */
        default void onDropped(String cause) {
        }
    }

    /** Accepted connections still in their handshake, at most: more are closed at once (two per member dial as a cluster of 32 forms). */
    static final int MAX_PENDING_HANDSHAKES = 64;
    private static final long DIAL_RETRY_MILLIS = 100;
    /** How often a lost lower-indexed member is dialed again. */
    private static final long REDIAL_MILLIS = 500;
    /**
     * A connect not done by then is a SYN lost (a link down, a partition): given up and dialed again,
     * as the kernel would retransmit it about then, so a link that comes back is found within a redial,
     * not after Netty's default 30 s. Across a placement group or loopback a connect takes under a ms.
     */
    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

    private final ClusterConfig config;
    private final byte[] memberListHash;
    private final Listener listener;
    private final PrintStream log;
    /** The data I/O thread: the data plane's connections, the listener, the snapshot stores. */
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("fournines-net", true));
    /** The view plane's thread: its connections, heartbeats, silences and the agreement. */
    private final EventLoopGroup viewGroup = new NioEventLoopGroup(1,
            new DefaultThreadFactory("fournines-view", true, Thread.MAX_PRIORITY));
    /** Ticks {@link FailureDetector}'s pause sentinel: a thread of its own, so a busy I/O thread is no pause. */
    private final ScheduledExecutorService sentinel = Executors.newSingleThreadScheduledExecutor(
            new DefaultThreadFactory("fournines-pause-sentinel", true, Thread.MAX_PRIORITY));
    private final AtomicReferenceArray<Channel> dataChannels;
    private final AtomicReferenceArray<Channel> viewChannels;
    /** Guards the planes' bits and membership's changes, which both planes' threads make. */
    private final Object lock = new Object();
    /** Per member, the {@link Plane} bits of the connections authenticated since it was last lost. */
    private final int[] planesUp;
    /**
     * Per member, the planes this member has a dialed connection open to (in its handshake, or up):
     * one at a time, or a redial while a slow handshake is still going would race it, and the
     * acceptor refuse the second as a duplicate.
     */
    private final int[] planesDialed;
    /** Per member, whether both its planes were ever up: it counted towards the join. */
    private final boolean[] everUp;
    private final Membership membership;
    private final FailureDetector detector;
    /** Confined to the view thread. */
    private final ViewAgreement agreement;
    private final TermStore terms;
    /** The view this member acts on, or null: set on the data I/O thread as the listener hears of it, published for the others. */
    private volatile View view;
    /** Confined to the data I/O thread. */
    private final ControlAheadOfView controlAheadOfView;
    private final long startNanos = System.nanoTime();
    /** The networks of the executions running here, by execution id (a job's id and its attempt). */
    private final Map<Long, ClusterJobNetwork> executions = new ConcurrentHashMap<>();
    private final Map<Long, ReplicatedSnapshotStore> snapshotStores = new ConcurrentHashMap<>();
    private final CountDownLatch joined;
    /** Accepted connections that have not finished their handshake. */
    private final AtomicInteger pendingHandshakes = new AtomicInteger();
    private final AtomicReference<String> joinFailure = new AtomicReference<>();
    private Channel server;
    private volatile boolean closing;

    private Cluster(ClusterConfig config, TermStore terms, Listener listener, PrintStream log) {
        this.config = config;
        this.terms = terms;
        this.memberListHash = config.memberListHash();
        this.listener = listener;
        this.log = log;
        int n = config.members().size();
        this.dataChannels = new AtomicReferenceArray<>(n);
        this.viewChannels = new AtomicReferenceArray<>(n);
        this.planesUp = new int[n];
        this.planesDialed = new int[n];
        this.everUp = new boolean[n];
        this.membership = new Membership(n);
        this.detector = new FailureDetector(n, config.heartbeatMillis(), config.failureTimeoutMillis(), System.nanoTime());
        this.controlAheadOfView = new ControlAheadOfView(config.self());
        TermStore.Saved saved = terms.load();
        this.agreement = new ViewAgreement(config.self(), n, config.voteTimeoutMillis(), new Random(), new AgreementEffects(),
                saved.term(), saved.votedFor());
        this.joined = new CountDownLatch(n - 1);
    }

    /**
     * Listens on this member's address, connects to every other member and returns once all are
     * connected and authenticated and this member acts on a view of all of them.
     *
     * @param terms where this member keeps its term and vote: they must outlive its process
     *              ({@link TermStore#inFile}) wherever its index may be started again
     */
    public static Cluster join(ClusterConfig config, TermStore terms, Listener listener, PrintStream log)
            throws InterruptedException, TimeoutException {
        Cluster cluster = new Cluster(config, terms, listener, log);
        try {
            cluster.start();
            cluster.awaitJoined();
        } catch (RuntimeException | InterruptedException | TimeoutException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public ClusterConfig config() {
        return config;
    }

    public int self() {
        return config.self();
    }

    public int size() {
        return config.members().size();
    }

    /** The coordinator of the view this member acts on, or -1 when it has none: it plans and coordinates jobs. */
    public int coordinator() {
        View v = view;
        return v == null ? -1 : v.coordinator();
    }

    /** The view this member acts on, or null. */
    public View view() {
        return view;
    }

    /** Why {@code member} was lost, or null while it is alive. */
    public String lostCause(int member) {
        return membership.lostCause(member);
    }

    private void start() {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .childHandler(initializer(-1, null))
                .bind(config.listenAddress()).syncUninterruptibly().channel();
        for (int m = 0; m < self(); m++) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMillis());
            for (Plane plane : Plane.values()) {
                dial(m, plane, deadline);
            }
        }
        detector.ticked(System.nanoTime());
        sentinel.scheduleAtFixedRate(() -> detector.ticked(System.nanoTime()), config.heartbeatMillis(), config.heartbeatMillis(),
                TimeUnit.MILLISECONDS);
        // With a fixed delay, a late check is not followed at once by a catch-up one: the loop reads its sockets in between.
        viewGroup.scheduleWithFixedDelay(this::heartbeat, config.heartbeatMillis(), config.heartbeatMillis(), TimeUnit.MILLISECONDS);
    }

    private static WriteBufferWaterMark waterMark() {
        return new WriteBufferWaterMark(1 << 20, 4 << 20);
    }

    /** Connections this member accepts ({@code dialedMember} -1) learn their plane in the handshake. */
    private ChannelInitializer<SocketChannel> initializer(int dialedMember, Plane plane) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new MemberFrameDecoder(),
                        new LengthFieldPrepender(4),
                        new FrameAuthenticator(),
                        new MemberConnectionHandler(Cluster.this, dialedMember, plane));
            }
        };
    }

    private void dial(int member, Plane plane, long deadlineNanos) {
        if (server == null || !server.isOpen()) {
            return;
        }
        synchronized (lock) {
            if ((planesDialed[member] & plane.bit) != 0) {
                return;
            }
            planesDialed[member] |= plane.bit;
        }
        ChannelFuture f = new Bootstrap().group(plane == Plane.VIEW ? viewGroup : group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .handler(initializer(member, plane))
                .connect(config.address(member));
        f.addListener(done -> {
            if (!done.isSuccess()) {
                dialEnded(member, plane);
                dialAgainWhileJoining(member, plane, deadlineNanos);
            } else {
                // Accepted, then closed before the handshake (a proxy, a member still starting): joining dials again.
                f.channel().closeFuture().addListener(closed -> {
                    dialEnded(member, plane);
                    if (!isUp(member, plane)) {
                        dialAgainWhileJoining(member, plane, deadlineNanos);
                    }
                });
            }
        });
    }

    private void dialEnded(int member, Plane plane) {
        synchronized (lock) {
            planesDialed[member] &= ~plane.bit;
        }
    }

    private void dialAgainWhileJoining(int member, Plane plane, long deadlineNanos) {
        if (!closing && joinFailure.get() == null && System.nanoTime() < deadlineNanos && joined.getCount() > 0) {
            group.schedule(() -> dial(member, plane, deadlineNanos), DIAL_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private boolean isUp(int member, Plane plane) {
        synchronized (lock) {
            return (planesUp[member] & plane.bit) != 0;
        }
    }

    private void awaitJoined() throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMillis());
        while (!joined.await(50, TimeUnit.MILLISECONDS) || !inViewOfAll()) {
            if (joinFailure.get() != null) {
                throw new IllegalStateException(joinFailure.get());
            }
            if (System.nanoTime() > deadline) {
                List<String> missing = new ArrayList<>();
                for (int m = 0; m < size(); m++) {
                    for (Plane plane : Plane.values()) {
                        if (m != self() && !isUp(m, plane)) {
                            missing.add(config.describe(m) + " (" + plane + " plane)");
                        }
                    }
                }
                throw new TimeoutException("member " + self() + ": not joined after " + config.joinTimeoutMillis() + " ms; "
                        + (missing.isEmpty() ? "connected to every member, but no view of all of them was installed (view: " + view + ")"
                        : "missing " + missing));
            }
        }
    }

    // Called by the connection handlers, on their plane's thread.

    ClusterSecret secret() {
        return config.secret();
    }

    byte[] memberListHash() {
        return memberListHash;
    }

    /** The view plane's thread, where an accepted connection moves once it names that plane. */
    EventLoop viewLoop() {
        return viewGroup.next();
    }

    void log(String line) {
        log.println("member " + self() + ": " + line);
        log.flush();
    }

    /**
     * A connection of {@code plane} proved the secret and is {@code member}'s; false (to be closed)
     * if that member has a live one of that plane. A lost member's new connections replace its old
     * ones: once both planes are up it joined again, and the views take it in ({@link ViewAgreement}).
     */
    boolean authenticated(int member, Plane plane, Channel channel) {
        Membership.Admission admission = null;
        boolean first = false;
        synchronized (lock) {
            if (closing || (planesUp[member] & plane.bit) != 0) {
                return false;
            }
            channels(plane).set(member, channel);
            planesUp[member] |= plane.bit;
            if (planesUp[member] != Plane.BOTH) {
                return true;
            }
            detector.heard(member, System.nanoTime());
            first = !everUp[member];
            everUp[member] = true;
            if (membership.lostCause(member) != null) {
                admission = membership.back(member);
            }
        }
        if (first) {
            joined.countDown();
        }
        if (admission != null) {
            log(admission == Membership.Admission.JOINED ? "connected again to member " + member : "member " + member + " joined again");
        }
        onViewThread(() -> agreement.reachable(member, true));
        return true;
    }

    /** An accepted connection starts its handshake; false (it is to be closed) when too many are pending already. */
    boolean handshakeStarted() {
        if (pendingHandshakes.incrementAndGet() > MAX_PENDING_HANDSHAKES) {
            pendingHandshakes.decrementAndGet();
            return false;
        }
        return true;
    }

    /** An accepted connection's handshake ended: it succeeded, failed, or the connection closed. */
    void handshakeEnded() {
        pendingHandshakes.decrementAndGet();
    }

    /** A member we dialed refused us: joining cannot succeed. */
    void refusedBy(int member, String reason) {
        String line = config.describe(member) + " refused this member: " + reason;
        log(line);
        joinFailure.compareAndSet(null, "member " + self() + ": " + line);
    }

    /** A frame came from {@code member} on the view plane. */
    void heard(int member) {
        detector.heard(member, System.nanoTime());
    }

    void connectionClosed(int member, Plane plane, Channel channel) {
        synchronized (lock) {
            if (channels(plane).get(member) != channel) {
                return;
            }
            planesUp[member] &= ~plane.bit;
        }
        memberLost(member, "the connection to " + config.describe(member) + " closed (" + plane + " plane)");
    }

    void onData(int from, long executionId, int edgeId, int entries, byte[] packet) {
        ClusterJobNetwork network = executions.get(executionId);
        if (network != null) {
            network.onData(from, edgeId, entries, packet);
        }
    }

    void onCredit(int from, long executionId, int edgeId, long limit) {
        ClusterJobNetwork network = executions.get(executionId);
        if (network != null) {
            network.onCredit(from, edgeId, limit);
        }
    }

    void onBatch(int from, long executionId, byte kind, int stage, long first, long second, long third) {
        ClusterJobNetwork network = executions.get(executionId);
        if (network != null) {
            network.onBatch(from, kind, stage, first, second, third);
        }
    }

    void onSnapshotFrame(int from, long jobId, ByteBuf frame) {
        ReplicatedSnapshotStore store = snapshotStores.get(jobId);
        if (store != null) {
            store.onFrame(from, frame);
        }
    }

    /** A view message from {@code from} (a heartbeat's view, a vote request, a vote, a view installed), on the view thread. */
    void onView(int from, ViewMessage message) {
        agreement.receive(from, message);
    }

    /**
     * A control message from {@code from}, sent while it acted on the view of {@code term}, on the
     * data I/O thread. The coordinator's commands ({@link ControlKind#fromCoordinator}) count only
     * from this member's coordinator in this member's view: a coordinator whose view was overtaken
     * cannot restart a job beside the new one's. One sent in an earlier view by the member that
     * coordinates this one counts too ({@link ControlAheadOfView#fromThisCoordinator}). One of a newer
     * term waits for that view ({@link ControlAheadOfView}).
     */
    void onControl(int from, long term, ControlKind kind, long jobId, String text) {
        View v = view;
        boolean ahead = term > (v == null ? -1 : v.term());
        if (kind.fromCoordinator() && (v == null || ahead || !ControlAheadOfView.fromThisCoordinator(from, term, v))) {
            if (ahead) {
                holdForItsView(new ControlAheadOfView.Command(from, term, kind, jobId, text));
            } else {
                ignoring(new ControlAheadOfView.Command(from, term, kind, jobId, text),
                        "this member acts on " + (v == null ? "no view" : "the view of " + v));
            }
            return;
        }
        if (kind.toCoordinator() && ahead) {
            holdForItsView(new ControlAheadOfView.Command(from, term, kind, jobId, text));
            return;
        }
        listener.onControl(from, kind, jobId, text);
    }

    private void holdForItsView(ControlAheadOfView.Command command) {
        ControlAheadOfView.Command dropped = controlAheadOfView.hold(command);
        if (dropped != null) {
            ignoring(dropped, "more than " + ControlAheadOfView.MAX_HELD + " commands waited for their views");
        }
    }

    private void ignoring(ControlAheadOfView.Command c, String why) {
        log("ignoring " + c.kind() + " for job " + c.jobId() + " from member " + c.from() + " (its view of term " + c.term() + "): " + why);
    }

    private void heartbeat() {
        long now = System.nanoTime();
        if (droppedAfterPause(now)) {
            return;
        }
        boolean judge = detector.onTime(now);
        for (int m = 0; m < size(); m++) {
            long silent = judge && bothUp(m) && membership.lostCause(m) == null ? detector.silentPastTimeout(m, now) : 0;
            if (silent > 0) {
                memberLost(m, "no heartbeat from " + config.describe(m) + " for " + TimeUnit.NANOSECONDS.toMillis(silent)
                        + " ms (failure timeout " + config.failureTimeoutMillis() + " ms)");
            }
        }
        // Not before this member reached every other: as the cluster forms, the lowest index stands with all of them.
        if (joined.getCount() == 0) {
            agreement.tick(TimeUnit.NANOSECONDS.toMillis(now - startNanos));
        }
        ViewMessage.Heartbeat beat = agreement.heartbeat();
        for (int m = 0; m < size(); m++) {
            sendView(m, beat);
        }
    }

    private boolean bothUp(int member) {
        synchronized (lock) {
            return planesUp[member] == Plane.BOTH;
        }
    }

    /** {@code member} is lost: its connections close, the agreement and the listener hear of it on their threads. Any thread. */
    private void memberLost(int member, String cause) {
        if (droppedAfterPause(System.nanoTime())) {
            return;
        }
        List<Channel> open;
        synchronized (lock) {
            if (closing || !membership.lose(member, cause)) {
                return;
            }
            open = detach(member);
        }
        log("lost " + cause);
        open.forEach(Channel::close);
        onViewThread(() -> agreement.reachable(member, false));
        onDataThread(() -> {
            snapshotStores.values().forEach(store -> store.memberLost(member));
            listener.onMemberLost(member, cause);
        });
        if (member < self()) {
            group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * If this member was paused long enough for the others to have dropped it ({@link
     * FailureDetector}), it drops out: every connection closed and every other member counted lost
     * without telling the listener of each (their silence was its own), and it dials the lower-indexed
     * ones again; the higher-indexed ones dial it. It has no view now: a majority takes it in again.
     */
    private boolean droppedAfterPause(long now) {
        long paused = closing ? 0 : detector.pausedPastThreshold(now);
        if (paused == 0) {
            return false;
        }
        String cause = "this member was paused for " + TimeUnit.NANOSECONDS.toMillis(paused) + " ms, about the failure timeout ("
                + config.failureTimeoutMillis() + " ms) or longer: the others have dropped it";
        log(cause + "; it leaves its jobs and joins again");
        int[] dropped;
        List<Channel> open = new ArrayList<>();
        synchronized (lock) {
            dropped = membership.droppedAfterPause(cause, m -> everUp[m]);
            for (int member : dropped) {
                open.addAll(detach(member));
            }
        }
        open.forEach(Channel::close);
        for (int member : dropped) {
            onViewThread(() -> agreement.reachable(member, false));
            if (member < self()) {
                group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
        onDataThread(() -> listener.onDropped(cause));
        return true;
    }

    /**
     * Under the lock: {@code member}'s planes count as down, and its connections are returned to be
     * closed (only these: one authenticated after the lock is released is a new one).
     */
    private List<Channel> detach(int member) {
        planesUp[member] = 0;
        List<Channel> open = new ArrayList<>();
        for (Plane plane : Plane.values()) {
            Channel ch = channels(plane).get(member);
            if (ch != null) {
                open.add(ch);
            }
        }
        return open;
    }

    /** Dials a lost lower-indexed member's planes that are not up until it is back (the higher index dials, so it is this one's call). */
    private void redial(int member) {
        if (closing || membership.lostCause(member) == null) {
            return;
        }
        for (Plane plane : Plane.values()) {
            if (!isUp(member, plane)) {
                dial(member, plane, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REDIAL_MILLIS));
            }
        }
        group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void onViewThread(Runnable action) {
        runOn(viewGroup, action);
    }

    private void onDataThread(Runnable action) {
        runOn(group, action);
    }

    private void runOn(EventLoopGroup thread, Runnable action) {
        try {
            thread.execute(action);
        } catch (RejectedExecutionException e) {
            // Closing: nothing is to act on it any more.
        }
    }

    private AtomicReferenceArray<Channel> channels(Plane plane) {
        return plane == Plane.VIEW ? viewChannels : dataChannels;
    }

    // Used by the members' jobs and the member process.

    /** The network of a job's execution on every member; every member uses the same id for it. */
    public ClusterJobNetwork jobNetwork(long executionId) {
        return jobNetwork(executionId, IntStream.range(0, size()).toArray());
    }

    /**
     * The network of an execution that runs on {@code members} (in index order, this one among
     * them); every one of them uses the same id for it.
     */
    public ClusterJobNetwork jobNetwork(long executionId, int[] members) {
        ClusterJobNetwork network = new ClusterJobNetwork(this, executionId, members);
        executions.put(executionId, network);
        return network;
    }

    /** The execution ended here: packets for it are dropped from now on. */
    public void executionEnded(long executionId) {
        executions.remove(executionId);
    }

    /**
     * The snapshot store of one job on this member: it keeps this member's state and sends a copy
     * to {@code backups} other members, and keeps their copies of theirs.
     */
    public ReplicatedSnapshotStore snapshotStore(long jobId, int backups) {
        ReplicatedSnapshotStore store = new ReplicatedSnapshotStore(this, jobId, backups);
        snapshotStores.put(jobId, store);
        return store;
    }

    /**
     * The job ended here: snapshot frames for it are dropped from now on, unless this member has
     * taken part in it anew meanwhile (dropped after a pause, then taken back in: {@code store} is
     * the part that ended, a newer one may be registered).
     */
    public void jobEnded(long jobId, ReplicatedSnapshotStore store) {
        snapshotStores.remove(jobId, store);
    }

    /** The data plane's connection to a live member, or null. */
    Channel channel(int member) {
        return liveChannel(Plane.DATA, member);
    }

    private Channel liveChannel(Plane plane, int member) {
        return membership.lostCause(member) == null ? channels(plane).get(member) : null;
    }

    /** False while a live member's data-plane connection holds more unsent bytes than its high water mark. */
    boolean writable(int member) {
        Channel ch = channel(member);
        return ch == null || ch.isWritable();
    }

    /** Queues a frame for a live member on the data plane; false (the frame released) if it is lost. */
    boolean send(int member, ByteBuf frame) {
        Channel ch = channel(member);
        if (ch == null) {
            frame.release();
            return false;
        }
        ch.writeAndFlush(frame, ch.voidPromise());
        return true;
    }

    /**
     * Sends a control message to one member (to itself: delivered directly), with the term of the
     * view this member acts on; nothing when {@code member} is -1 (no coordinator) or lost.
     */
    public void sendControl(int member, ControlKind kind, long jobId, String text) {
        if (member == self()) {
            listener.onControl(self(), kind, jobId, text);
            return;
        }
        Channel ch = member < 0 ? null : channel(member);
        if (ch == null) {
            return;
        }
        View v = view;
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = ch.alloc().buffer(1 + 1 + 8 + 8 + bytes.length);
        frame.writeByte(Frames.CONTROL).writeByte(kind.code).writeLong(v == null ? -1 : v.term()).writeLong(jobId).writeBytes(bytes);
        ch.writeAndFlush(frame, ch.voidPromise());
    }

    /** Sends a control message to every live member, this one included. */
    public void broadcastControl(ControlKind kind, long jobId, String text) {
        for (int m = 0; m < size(); m++) {
            if (m == self() || membership.lostCause(m) == null) {
                sendControl(m, kind, jobId, text);
            }
        }
    }

    /** Sends a view message (a heartbeat among them) to a live member on the view plane; nothing to a lost one or this one. */
    private void sendView(int member, ViewMessage message) {
        Channel ch = liveChannel(Plane.VIEW, member);
        if (ch != null) {
            ch.writeAndFlush(ViewFrames.encode(ch.alloc(), message), ch.voidPromise());
        }
    }

    /** Whether this member acts on a view of every configured member. */
    private boolean inViewOfAll() {
        View v = view;
        return v != null && v.members().cardinality() == size();
    }

    /**
     * The view installed, on the data I/O thread: the listener hears of it, then the commands its
     * coordinator sent in it before it came here.
     */
    private void actOn(View installed, String why) {
        view = installed;
        log(installed == null ? "acts on no view (" + why + "): its jobs pause until a majority takes it in"
                : "acts on the view of " + installed + " (" + why + ")");
        listener.onViewChanged(installed);
        if (installed != null) {
            List<ControlAheadOfView.Command> stale = new ArrayList<>();
            for (ControlAheadOfView.Command c : controlAheadOfView.release(installed, stale)) {
                listener.onControl(c.from(), c.kind(), c.jobId(), c.text());
            }
            stale.forEach(c -> ignoring(c, "this member acts on the view of " + installed));
        }
    }

    /** The agreement's effects, on the view thread. */
    private final class AgreementEffects implements ViewAgreement.Effects {
        @Override
        public void persist(long term, int votedFor) {
            terms.save(term, votedFor);
        }

        @Override
        public void send(int member, ViewMessage message) {
            sendView(member, message);
        }

        @Override
        public void viewChanged(View installed, String why) {
            onDataThread(() -> actOn(installed, why));
        }
    }

    @Override
    public void close() {
        List<Channel> open = new ArrayList<>();
        synchronized (lock) {
            closing = true;
            for (int m = 0; m < size(); m++) {
                open.addAll(detach(m));
            }
        }
        if (server != null) {
            server.close();
        }
        open.forEach(Channel::close);
        sentinel.shutdownNow();
        viewGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
