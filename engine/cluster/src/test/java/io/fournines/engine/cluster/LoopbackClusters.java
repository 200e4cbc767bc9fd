package io.fournines.engine.cluster;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
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

    private final List<Cluster> clusters = new ArrayList<>();

    /** Joins {@code n} members, member i with {@code listeners.apply(i)}; returns when all have joined. */
    List<Cluster> join(int n, IntFunction<Cluster.Listener> listeners) throws Exception {
        List<InetSocketAddress> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                members.add(new InetSocketAddress("127.0.0.1", s.getLocalPort()));
            }
        }
        ClusterSecret secret = ClusterSecret.of("loopback-clusters-test-secret", "test");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<Thread> joining = new ArrayList<>();
        Cluster[] joined = new Cluster[n];
        Exception[] failed = new Exception[n];
        for (int m = 0; m < n; m++) {
            int index = m;
            Thread t = new Thread(() -> {
                try {
                    joined[index] = Cluster.join(new ClusterConfig(members, index, secret, 50, 1_000, 10_000), listeners.apply(index), quiet);
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
        for (int m = 0; m < n; m++) {
            if (failed[m] != null) {
                throw new IllegalStateException("member " + m + " did not join", failed[m]);
            }
        }
        clusters.addAll(List.of(joined));
        return List.of(joined);
    }

    @Override
    public void close() {
        clusters.forEach(Cluster::close);
    }
}
