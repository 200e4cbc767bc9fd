package io.fournines.engine.cluster;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/** Members of one cluster in this JVM, on loopback ports, with real connections; closes them all. */
final class LoopbackClusters implements AutoCloseable {

    static final Cluster.Listener DEAF = new Cluster.Listener() {
        @Override
        public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
        }

        @Override
        public void onMemberLost(int member, String cause) {
        }
    };

    static final ClusterSecret SECRET = ClusterSecret.of("loopback-clusters-test-secret", "test");

    private final List<Cluster> clusters = new ArrayList<>();
    private final List<ByteArrayOutputStream> logs = new ArrayList<>();

    /** Joins {@code n} members, member i with {@code listeners.apply(i)}; returns when all have joined. */
    List<Cluster> join(int n, IntFunction<Cluster.Listener> listeners) throws Exception {
        Attempt attempt = attempt(n, listeners, (members, i) -> new ClusterConfig(members, i, SECRET, 50, 1_000, 10_000));
        for (int m = 0; m < n; m++) {
            if (attempt.failures()[m] != null) {
                throw new IllegalStateException("member " + m + " did not join", attempt.failures()[m]);
            }
        }
        return attempt.joined();
    }

    /** How {@code n} members trying to join came out: each one's cluster, or why it did not join. */
    record Attempt(List<Cluster> joined, Exception[] failures) {
    }

    /** Member {@code index}'s configuration, given the loopback addresses chosen for the members. */
    @FunctionalInterface
    interface Configs {
        ClusterConfig of(List<InetSocketAddress> members, int index);
    }

    /** {@code n} members try to join, each with its configuration from {@code configs}; returns when each has joined or given up. */
    Attempt attempt(int n, IntFunction<Cluster.Listener> listeners, Configs configs) throws Exception {
        List<InetSocketAddress> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                members.add(new InetSocketAddress("127.0.0.1", s.getLocalPort()));
            }
        }
        List<Thread> joining = new ArrayList<>();
        Cluster[] joined = new Cluster[n];
        Exception[] failed = new Exception[n];
        int first = logs.size();
        for (int m = 0; m < n; m++) {
            logs.add(new ByteArrayOutputStream());
        }
        for (int m = 0; m < n; m++) {
            int index = m;
            PrintStream log = new PrintStream(logs.get(first + m), true, StandardCharsets.UTF_8);
            Thread t = new Thread(() -> {
                try {
                    joined[index] = Cluster.join(configs.of(members, index), listeners.apply(index), log);
                } catch (Exception e) {
                    failed[index] = e;
                }
            });
            t.start();
            joining.add(t);
        }
        for (Thread t : joining) {
            t.join();
        }
        List<Cluster> ok = new ArrayList<>();
        for (Cluster c : joined) {
            if (c != null) {
                ok.add(c);
            }
        }
        clusters.addAll(ok);
        return new Attempt(Arrays.asList(joined), failed);
    }

    /** What the {@code i}th member joined so far (over all calls) wrote to its log. */
    String log(int i) {
        return logs.get(i).toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        clusters.forEach(Cluster::close);
    }
}
