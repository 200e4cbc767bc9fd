package io.fournines.engine.cluster;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * A member's view of its static cluster. Members are listed in the same order everywhere: a member
 * is its index in the list.
 *
 * @param members              every member's address, this one included
 * @param self                 this member's index in {@code members}
 * @param heartbeatMillis      how often each member tells each other one it is alive
 * @param failureTimeoutMillis a member silent this long is declared lost
 * @param joinTimeoutMillis    how long to wait for every member to connect at start
 * @param listen               where this member listens, or null: its address in {@code members}.
 *                             Another address when the others reach it through something in
 *                             between (a fault-injecting proxy, a NAT)
 */
public record ClusterConfig(List<InetSocketAddress> members, int self, ClusterSecret secret, long heartbeatMillis,
                            long failureTimeoutMillis, long joinTimeoutMillis, InetSocketAddress listen) {

    /** A member that listens on its address in the list. */
    public ClusterConfig(List<InetSocketAddress> members, int self, ClusterSecret secret, long heartbeatMillis, long failureTimeoutMillis,
                         long joinTimeoutMillis) {
        this(members, self, secret, heartbeatMillis, failureTimeoutMillis, joinTimeoutMillis, null);
    }

    public static final long DEFAULT_HEARTBEAT_MILLIS = 200;
    public static final long DEFAULT_FAILURE_TIMEOUT_MILLIS = 3_000;
    public static final long DEFAULT_JOIN_TIMEOUT_MILLIS = 60_000;

    public ClusterConfig {
        members = List.copyOf(members);
        if (self < 0 || self >= members.size()) {
            throw new IllegalArgumentException("member index " + self + " is not in the member list (0.." + (members.size() - 1) + ")");
        }
        if (heartbeatMillis < 1 || failureTimeoutMillis <= heartbeatMillis) {
            throw new IllegalArgumentException("the failure timeout (" + failureTimeoutMillis + " ms) must exceed the heartbeat interval ("
                    + heartbeatMillis + " ms)");
        }
    }

    /**
     * How long a member standing for coordinator waits for the votes of the members it hears
     * ({@link ViewAgreement}; it stops waiting once all of them voted): five heartbeats, at most the
     * failure timeout. Longer waits leave a live member out of fewer views, but a failed candidacy
     * then holds its member off for one to two of them, and at half the failure timeout the members
     * that lost a paused coordinator had not elected another before it came back (see
     * engine/MEASURED.md, 2026-11-24).
     */
    public long voteTimeoutMillis() {
        return Math.min(5 * heartbeatMillis, failureTimeoutMillis);
    }

    /** Parses {@code host:port}. */
    public static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("member address must be host:port; is \"" + hostPort + "\"");
        }
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("member address must be host:port; is \"" + hostPort + "\"");
        }
    }

    public InetSocketAddress address(int member) {
        return members.get(member);
    }

    /** Where this member listens. */
    public InetSocketAddress listenAddress() {
        return listen != null ? listen : members.get(self);
    }

    /** The same, listening on {@code address}. */
    public ClusterConfig listeningOn(InetSocketAddress address) {
        return new ClusterConfig(members, self, secret, heartbeatMillis, failureTimeoutMillis, joinTimeoutMillis, address);
    }

    /**
     * SHA-256 of the member list (every address as host:port, in order): members compare it in the
     * handshake, so a member given another list is refused by name instead of forming a different cluster.
     */
    public byte[] memberListHash() {
        StringBuilder list = new StringBuilder();
        for (InetSocketAddress a : members) {
            list.append(a.getHostString()).append(':').append(a.getPort()).append('\n');
        }
        try {
            return MessageDigest.getInstance("SHA-256").digest(list.toString().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** How a member is named in logs and errors. */
    public String describe(int member) {
        InetSocketAddress a = members.get(member);
        return "member " + member + " (" + a.getHostString() + ":" + a.getPort() + ")";
    }
}
