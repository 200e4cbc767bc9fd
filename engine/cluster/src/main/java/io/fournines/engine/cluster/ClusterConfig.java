package io.fournines.engine.cluster;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * A member's view of its static cluster. Members are listed in the same order everywhere; the
 * list's order is their age, so the coordinator is the first live one.
 *
 * @param members              every member's address, this one included
 * @param self                 this member's index in {@code members}
 * @param heartbeatMillis      how often each member tells each other one it is alive
 * @param failureTimeoutMillis a member silent this long is declared lost
 * @param joinTimeoutMillis    how long to wait for every member to connect at start
 */
public record ClusterConfig(List<InetSocketAddress> members, int self, ClusterSecret secret, long heartbeatMillis,
                            long failureTimeoutMillis, long joinTimeoutMillis) {

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
