package io.fournines.engine.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One member connection of one {@link Plane}: first the handshake, then the member's messages. The
 * acceptor sends a nonce; the dialer answers with its index, the plane, its own nonce, the hash of
 * its member list and an HMAC over the acceptor's nonce, both indices, the plane, its nonce and the
 * list's hash; the acceptor checks the list (another list is refused by name) and the HMAC, and
 * answers with an HMAC over the dialer's nonce, its own index and the list's hash. A proof made for
 * one member is worth nothing at another. An accepted connection of the view plane then moves to
 * the view thread; a frame of the other plane's kinds closes the connection.
 * Every frame after the handshake carries a tag under a key of this connection alone
 * ({@link FrameAuthenticator}). Either side that sees a wrong HMAC logs why and closes; nothing
 * but the handshake is read before it succeeds, in frames of at most
 * {@link MemberFrameDecoder#HANDSHAKE_MAX_BYTES}; a handshake not done within
 * {@link #HANDSHAKE_TIMEOUT_MILLIS} is closed, and so is an accepted connection beyond
 * {@link Cluster#MAX_PENDING_HANDSHAKES} still in theirs.
 */
final class MemberConnectionHandler extends SimpleChannelInboundHandler<ByteBuf> {

    private static final byte[] JOIN = "fournines-join".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WELCOME = "fournines-welcome".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SESSION = "fournines-session".getBytes(StandardCharsets.UTF_8);
    /** A handshake takes a round trip or two; one that takes this long is a peer that will not answer. */
    static final long HANDSHAKE_TIMEOUT_MILLIS = 5_000;

    private final Cluster cluster;
    /** The member this side dialed, or -1 on the accepting side. */
    private final int dialedMember;
    /** What the connection carries: the dialer's choice, learnt by the acceptor in the handshake. */
    private Plane plane;
    private byte[] ownNonce;
    /** On the dialing side: the acceptor's challenge, which the session key is made of too. */
    private byte[] acceptorNonce;
    /** The authenticated peer, -1 until the handshake succeeds; read by the handshake timeout on the thread the connection started on. */
    private volatile int member = -1;
    /** An accepted connection counted among the pending handshakes, until it ends. */
    private boolean pending;

    /** {@code plane} is null on the accepting side ({@code dialedMember} -1): the dialer names it. */
    MemberConnectionHandler(Cluster cluster, int dialedMember, Plane plane) {
        this.cluster = cluster;
        this.dialedMember = dialedMember;
        this.plane = plane;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (dialedMember < 0 && !cluster.handshakeStarted()) {
            cluster.log("closing the connection from " + ctx.channel().remoteAddress() + ": " + Cluster.MAX_PENDING_HANDSHAKES
                    + " connections are in their handshake already");
            ctx.close();
            return;
        }
        pending = dialedMember < 0;
        ctx.executor().schedule(() -> {
            if (member < 0 && ctx.channel().isOpen()) {
                cluster.log("closing the connection " + (dialedMember < 0 ? "from " + ctx.channel().remoteAddress() : "to member " + dialedMember)
                        + ": no handshake within " + HANDSHAKE_TIMEOUT_MILLIS + " ms");
                ctx.close();
            }
        }, HANDSHAKE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        if (dialedMember < 0) {
            ownNonce = ClusterSecret.nonce();
            ByteBuf frame = ctx.alloc().buffer(1 + ownNonce.length);
            ctx.writeAndFlush(frame.writeByte(Frames.CHALLENGE).writeBytes(ownNonce));
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf in) {
        byte type = in.readByte();
        if (member < 0) {
            handshake(ctx, type, in);
            return;
        }
        if (plane == Plane.VIEW) {
            cluster.heard(member);
            viewFrame(ctx, type, in);
        } else {
            dataFrame(ctx, type, in);
        }
    }

    private void viewFrame(ChannelHandlerContext ctx, byte type, ByteBuf in) {
        switch (type) {
            case Frames.HEARTBEAT -> {
                ViewMessage.Heartbeat heartbeat = ViewFrames.heartbeat(in);
                handled("a heartbeat", () -> cluster.onView(member, heartbeat));
            }
            case Frames.VIEW -> {
                ViewMessage message = ViewFrames.view(in, cluster.size());
                if (message == null) {
                    cluster.log("ignoring a view message of unknown kind from member " + member);
                } else {
                    handled("a view message", () -> cluster.onView(member, message));
                }
            }
            default -> unexpected(ctx, type);
        }
    }

    private void dataFrame(ChannelHandlerContext ctx, byte type, ByteBuf in) {
        switch (type) {
            case Frames.DATA -> {
                long jobId = in.readLong();
                int edgeId = in.readInt();
                int entries = in.readInt();
                byte[] packet = new byte[in.readableBytes()];
                in.readBytes(packet);
                handled("a data packet for execution " + jobId, () -> cluster.onData(member, jobId, edgeId, entries, packet));
            }
            case Frames.SNAPSHOT -> {
                long jobId = in.readLong();
                handled("a snapshot frame for job " + jobId, () -> cluster.onSnapshotFrame(member, jobId, in));
            }
            case Frames.CREDIT -> {
                long executionId = in.readLong();
                int edgeId = in.readInt();
                long limit = in.readLong();
                handled("credit for execution " + executionId, () -> cluster.onCredit(member, executionId, edgeId, limit));
            }
            case Frames.BATCH -> {
                long executionId = in.readLong();
                byte kind = in.readByte();
                int stage = in.readInt();
                long first = in.readLong();
                long second = in.readLong();
                long third = in.readLong();
                handled("a batch message for execution " + executionId, () -> cluster.onBatch(member, executionId, kind, stage, first, second, third));
            }
            case Frames.CONTROL -> {
                int code = in.readByte();
                ControlKind kind = ControlKind.of(code);
                long term = in.readLong();
                long jobId = in.readLong();
                if (kind == null) {
                    cluster.log("ignoring a control message of unknown kind " + code + " from member " + member);
                } else {
                    String text = in.toString(StandardCharsets.UTF_8);
                    handled("control message " + kind + " for job " + jobId, () -> cluster.onControl(member, term, kind, jobId, text));
                }
            }
            default -> unexpected(ctx, type);
        }
    }

    private void unexpected(ChannelHandlerContext ctx, byte type) {
        cluster.log("closing the " + plane + " plane's connection to member " + member
                + ": frame type " + type + " does not belong on it");
        ctx.close();
    }

    /**
     * Runs what a well-formed frame asks for. Its failure is the job's or the store's, which handle
     * their own (a job fails with a cause): it must not close the connection, or one job's error
     * would count the peer lost and restart every job running on it. A frame cut short still fails
     * while it is read, above, and closes the connection: that peer is broken.
     */
    private void handled(String frame, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            cluster.log(frame + " from member " + member + " failed here (the connection stays): " + e);
        }
    }

    private void handshake(ChannelHandlerContext ctx, byte type, ByteBuf in) {
        String peer = String.valueOf(ctx.channel().remoteAddress());
        ClusterSecret secret = cluster.secret();
        if (dialedMember < 0 && type == Frames.HELLO && in.readableBytes() == 4 + 1 + 32 + 32 + 32) {
            int claimed = in.readInt();
            int planeCode = in.readByte();
            byte[] theirNonce = bytes(in, 32);
            byte[] theirList = bytes(in, 32);
            byte[] proof = bytes(in, 32);
            Plane named = Plane.of(planeCode);
            if (claimed < 0 || claimed >= cluster.size() || claimed == cluster.self()) {
                refuse(ctx, "claims member index " + claimed + ", which is not another member of this " + cluster.size() + "-member cluster");
            } else if (named == null) {
                refuse(ctx, "names connection plane " + planeCode + ", which is neither " + Plane.DATA.bit + " (data) nor " + Plane.VIEW.bit + " (view)");
            } else if (!ClusterSecret.sameMac(cluster.memberListHash(), theirList)) {
                refuse(ctx, "claims to be member " + claimed + " but was given a different member list: every member must be given the same list");
            } else if (!ClusterSecret.sameMac(secret.mac(JOIN, ownNonce, intBytes(claimed), intBytes(cluster.self()), new byte[] {(byte) planeCode},
                    theirNonce, theirList), proof)) {
                refuse(ctx, "claims to be member " + claimed + " but does not know the cluster secret (HMAC mismatch): wrong secret");
            } else if (!cluster.authenticated(claimed, named, ctx.channel())) {
                refuse(ctx, "member " + claimed + " is already connected on the " + named + " plane");
            } else {
                plane = named;
                authenticated(ctx, claimed);
                byte[] answer = secret.mac(WELCOME, theirNonce, intBytes(cluster.self()), theirList);
                ctx.writeAndFlush(ctx.alloc().buffer(33).writeByte(Frames.WELCOME).writeBytes(answer));
                ctx.pipeline().get(FrameAuthenticator.class).enable(sessionKey(ownNonce, theirNonce, cluster.self(), claimed), false);
                if (plane == Plane.VIEW) {
                    // Accepted on the data thread: from now on read on the view plane's own.
                    Channel ch = ctx.channel();
                    ch.deregister().addListener(done -> cluster.viewLoop().register(ch));
                }
            }
        } else if (dialedMember >= 0 && type == Frames.CHALLENGE && in.readableBytes() == 32) {
            byte[] challenge = bytes(in, 32);
            acceptorNonce = challenge;
            ownNonce = ClusterSecret.nonce();
            byte[] list = cluster.memberListHash();
            byte[] proof = secret.mac(JOIN, challenge, intBytes(cluster.self()), intBytes(dialedMember), new byte[] {(byte) plane.bit}, ownNonce, list);
            ctx.writeAndFlush(ctx.alloc().buffer(1 + 4 + 1 + 96).writeByte(Frames.HELLO).writeInt(cluster.self()).writeByte(plane.bit)
                    .writeBytes(ownNonce).writeBytes(list).writeBytes(proof));
        } else if (dialedMember >= 0 && type == Frames.WELCOME && ownNonce != null && in.readableBytes() == 32) {
            byte[] answer = bytes(in, 32);
            if (!ClusterSecret.sameMac(secret.mac(WELCOME, ownNonce, intBytes(dialedMember), cluster.memberListHash()), answer)) {
                cluster.refusedBy(dialedMember, "its answer does not prove the cluster secret (HMAC mismatch): it has a different secret");
                ctx.close();
            } else if (!cluster.authenticated(dialedMember, plane, ctx.channel())) {
                ctx.close();
            } else {
                authenticated(ctx, dialedMember);
                ctx.pipeline().get(FrameAuthenticator.class).enable(sessionKey(acceptorNonce, ownNonce, dialedMember, cluster.self()), true);
            }
        } else if (dialedMember >= 0 && type == Frames.REFUSED) {
            cluster.refusedBy(dialedMember, in.toString(StandardCharsets.UTF_8));
            ctx.close();
        } else {
            cluster.log("closing the connection from " + peer + ": unexpected frame " + type + " before the handshake completed");
            ctx.close();
        }
    }

    /** The peer proved the secret: it is {@code peer}, and its frames may be of any size now. */
    private void authenticated(ChannelHandlerContext ctx, int peer) {
        member = peer;
        ctx.pipeline().get(MemberFrameDecoder.class).authenticated();
        endPending();
    }

    private void endPending() {
        if (pending) {
            pending = false;
            cluster.handshakeEnded();
        }
    }

    private void refuse(ChannelHandlerContext ctx, String why) {
        cluster.log("refused a connection from " + ctx.channel().remoteAddress() + ": it " + why);
        byte[] reason = ("member " + cluster.self() + " refused the connection: it " + why).getBytes(StandardCharsets.UTF_8);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {Frames.REFUSED}, reason)).addListener(f -> ctx.close());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endPending();
        if (member >= 0) {
            cluster.connectionClosed(member, plane, ctx.channel());
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        cluster.log("connection " + (member >= 0 ? "to member " + member : "from " + ctx.channel().remoteAddress()) + " failed: " + cause);
        ctx.close();
    }

    /** The key of this connection's frame tags ({@link FrameAuthenticator}): both sides derive it, it never travels. */
    private byte[] sessionKey(byte[] acceptorsNonce, byte[] dialersNonce, int acceptor, int dialer) {
        return cluster.secret().mac(SESSION, acceptorsNonce, dialersNonce, intBytes(acceptor), intBytes(dialer), new byte[] {(byte) plane.bit},
                cluster.memberListHash());
    }

    private static byte[] bytes(ByteBuf in, int n) {
        byte[] b = new byte[n];
        in.readBytes(b);
        return b;
    }

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }
}
