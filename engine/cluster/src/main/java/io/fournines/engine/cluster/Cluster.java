package io.fournines.engine.cluster;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

/**
 * This member's connections to the others: one TCP connection per member pair (the younger member
 * dials the lower-indexed), authenticated by HMAC challenge-response over the shared secret, carrying
 * heartbeats, the distributed edges' packets and credit, and job control messages, which it routes
 * to the executions, snapshot stores and listener they are for. A member that closes its connection
 * or stays silent for the failure timeout ({@link FailureDetector}) is lost: the listener hears of
 * it once. The member list is static, but a lost member's index may join again (its process started
 * anew, or a partition healed): the higher-indexed members dial it again until it answers, the lower
 * ones take its call.
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

    /** What the member that owns the cluster hears. Called on the I/O thread: must not block. */
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

    /** Accepted connections still in their handshake, at most: more are closed at once. */
    static final int MAX_PENDING_HANDSHAKES = 16;
    private static final long DIAL_RETRY_MILLIS = 100;
    /** How often a lost lower-indexed member is dialed again. */
    private static final long REDIAL_MILLIS = 500;

    private final ClusterConfig config;
    private final byte[] memberListHash;
    private final Listener listener;
    private final PrintStream log;
    private final EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("fournines-net", true));
    /** Ticks {@link FailureDetector}'s pause sentinel: a thread of its own, so a busy I/O thread is no pause. */
    private final ScheduledExecutorService sentinel = Executors.newSingleThreadScheduledExecutor(
            new DefaultThreadFactory("fournines-pause-sentinel", true, Thread.MAX_PRIORITY));
    private final AtomicReferenceArray<Channel> channels;
    private final Membership membership;
    private final FailureDetector detector;
    /** Confined to the I/O thread. */
    private final ViewAgreement agreement;
    private final TermStore terms;
    /** The view this member acts on, or null; published for the other threads. */
    private volatile View view;
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
        this.channels = new AtomicReferenceArray<>(n);
        this.membership = new Membership(n);
        this.detector = new FailureDetector(n, config.heartbeatMillis(), config.failureTimeoutMillis(), System.nanoTime());
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
                .childHandler(initializer(-1))
                .bind(config.listenAddress()).syncUninterruptibly().channel();
        for (int m = 0; m < self(); m++) {
            dial(m, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMillis()));
        }
        detector.ticked(System.nanoTime());
        sentinel.scheduleAtFixedRate(() -> detector.ticked(System.nanoTime()), config.heartbeatMillis(), config.heartbeatMillis(),
                TimeUnit.MILLISECONDS);
        // With a fixed delay, a late check is not followed at once by a catch-up one: the loop reads its sockets in between.
        group.scheduleWithFixedDelay(this::heartbeat, config.heartbeatMillis(), config.heartbeatMillis(), TimeUnit.MILLISECONDS);
    }

    private static WriteBufferWaterMark waterMark() {
        return new WriteBufferWaterMark(1 << 20, 4 << 20);
    }

    private ChannelInitializer<SocketChannel> initializer(int dialedMember) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new MemberFrameDecoder(),
                        new LengthFieldPrepender(4),
                        new FrameAuthenticator(),
                        new MemberConnectionHandler(Cluster.this, dialedMember));
            }
        };
    }

    private void dial(int member, long deadlineNanos) {
        if (server == null || !server.isOpen()) {
            return;
        }
        ChannelFuture f = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .handler(initializer(member))
                .connect(config.address(member));
        f.addListener(done -> {
            if (!done.isSuccess()) {
                dialAgainWhileJoining(member, deadlineNanos);
            } else {
                // Accepted, then closed before the handshake (a proxy, a member still starting): joining dials again.
                f.channel().closeFuture().addListener(closed -> {
                    if (channels.get(member) == null) {
                        dialAgainWhileJoining(member, deadlineNanos);
                    }
                });
            }
        });
    }

    private void dialAgainWhileJoining(int member, long deadlineNanos) {
        if (!closing && joinFailure.get() == null && System.nanoTime() < deadlineNanos && joined.getCount() > 0) {
            group.schedule(() -> dial(member, deadlineNanos), DIAL_RETRY_MILLIS, TimeUnit.MILLISECONDS);
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
                    if (m != self() && channels.get(m) == null) {
                        missing.add(config.describe(m));
                    }
                }
                throw new TimeoutException("member " + self() + ": not joined after " + config.joinTimeoutMillis() + " ms; "
                        + (missing.isEmpty() ? "connected to every member, but no view of all of them was installed (view: " + view + ")"
                        : "missing " + missing));
            }
        }
    }

    // Called by the connection handlers, on the I/O thread.

    ClusterSecret secret() {
        return config.secret();
    }

    byte[] memberListHash() {
        return memberListHash;
    }

    void log(String line) {
        log.println("member " + self() + ": " + line);
        log.flush();
    }

    /**
     * A connection proved the secret and is {@code member}'s; refused if that member already has a
     * live one. A lost member's new connection replaces its old one: it joined again, and the
     * views take it in ({@link ViewAgreement}).
     */
    Membership.Admission authenticated(int member, Channel channel) {
        Channel old = channels.get(member);
        boolean rejoined = old != null && membership.lostCause(member) != null;
        if (old != null && !rejoined || !channels.compareAndSet(member, old, channel)) {
            return Membership.Admission.REFUSED;
        }
        detector.heard(member, System.nanoTime());
        Membership.Admission admission = Membership.Admission.JOINED;
        if (!rejoined) {
            joined.countDown();
        } else {
            admission = membership.back(member);
            log(admission == Membership.Admission.JOINED ? "connected again to member " + member : "member " + member + " joined again");
        }
        agreement.reachable(member, true);
        return admission;
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

    void heard(int member) {
        detector.heard(member, System.nanoTime());
    }

    void connectionClosed(int member, Channel channel) {
        if (channels.get(member) == channel) {
            memberLost(member, "the connection to " + config.describe(member) + " closed");
        }
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

    void onSnapshotFrame(int from, long jobId, ByteBuf frame) {
        ReplicatedSnapshotStore store = snapshotStores.get(jobId);
        if (store != null) {
            store.onFrame(from, frame);
        }
    }

    /** A view message from {@code from} (a heartbeat's view, a vote request, a vote, a view installed). */
    void onView(int from, ViewMessage message) {
        agreement.receive(from, message);
    }

    /**
     * A control message from {@code from}, sent while it acted on the view of {@code term}. The
     * coordinator's commands ({@link ControlKind#fromCoordinator}) count only from this member's
     * coordinator in this member's view: a coordinator whose view was overtaken cannot restart a job
     * beside the new one's.
     */
    void onControl(int from, long term, ControlKind kind, long jobId, String text) {
        View v = view;
        if (kind.fromCoordinator() && (v == null || v.term() != term || v.coordinator() != from)) {
            log("ignoring " + kind + " for job " + jobId + " from member " + from + " (its view of term " + term + "): this member acts on "
                    + (v == null ? "no view" : "the view of " + v));
            return;
        }
        listener.onControl(from, kind, jobId, text);
    }

    private void heartbeat() {
        long now = System.nanoTime();
        if (droppedAfterPause(now)) {
            return;
        }
        boolean judge = detector.onTime(now);
        for (int m = 0; m < size(); m++) {
            Channel ch = channels.get(m);
            if (ch == null || membership.lostCause(m) != null) {
                continue;
            }
            long silent = judge ? detector.silentPastTimeout(m, now) : 0;
            if (silent > 0) {
                memberLost(m, "no heartbeat from " + config.describe(m) + " for " + TimeUnit.NANOSECONDS.toMillis(silent)
                        + " ms (failure timeout " + config.failureTimeoutMillis() + " ms)");
                ch.close();
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

    private void memberLost(int member, String cause) {
        if (droppedAfterPause(System.nanoTime())) {
            return;
        }
        if (!closing && membership.lose(member, cause)) {
            log("lost " + cause);
            agreement.reachable(member, false);
            snapshotStores.values().forEach(store -> store.memberLost(member));
            listener.onMemberLost(member, cause);
            if (member < self()) {
                group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
            }
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
        for (int member : membership.droppedAfterPause(cause, m -> channels.get(m) != null)) {
            agreement.reachable(member, false);
            channels.get(member).close();
            if (member < self()) {
                group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
        listener.onDropped(cause);
        return true;
    }

    /** Dials a lost lower-indexed member until it is back (the higher index dials, so it is this one's call). */
    private void redial(int member) {
        if (closing || membership.lostCause(member) == null) {
            return;
        }
        dial(member, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REDIAL_MILLIS));
        group.schedule(() -> redial(member), REDIAL_MILLIS, TimeUnit.MILLISECONDS);
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

    /** The connection to a live member, or null. */
    Channel channel(int member) {
        return membership.lostCause(member) == null ? channels.get(member) : null;
    }

    /** Queues a frame for a live member; false (the frame released) if it is lost. */
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

    /** Sends a view message (a heartbeat among them) to a live member; nothing to a lost one or this one. */
    private void sendView(int member, ViewMessage message) {
        Channel ch = channel(member);
        if (ch != null) {
            ch.writeAndFlush(ViewFrames.encode(ch.alloc(), message), ch.voidPromise());
        }
    }

    /** Whether this member acts on a view of every configured member. */
    private boolean inViewOfAll() {
        View v = view;
        return v != null && v.members().cardinality() == size();
    }

    /** The agreement's effects, on the I/O thread. */
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
            view = installed;
            log(installed == null ? "acts on no view (" + why + "): its jobs pause until a majority takes it in"
                    : "acts on the view of " + installed + " (" + why + ")");
            listener.onViewChanged(installed);
        }
    }

    @Override
    public void close() {
        closing = true;
        if (server != null) {
            server.close();
        }
        for (int m = 0; m < size(); m++) {
            Channel ch = channels.get(m);
            if (ch != null) {
                ch.close();
            }
        }
        sentinel.shutdownNow();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
