package io.fournines.engine.cluster;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Members of one cluster in this JVM, on loopback ports, with real connections, each behind a
 * {@link FaultProxy} if asked ({@link FaultProxies}); closes them all.
 */
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
    private FaultProxies proxies;

    /** Joins {@code n} members, member i with {@code listeners.apply(i)}; returns when all have joined. */
    List<Cluster> join(int n, IntFunction<Cluster.Listener> listeners) throws Exception {
        return joined(attempt(n, listeners, (members, i) -> config(members, i)));
    }

    /**
     * Joins {@code n} members each behind a proxy of its own ({@link #proxies}): the member list names
     * the proxies, so member j's connection to member i (j &gt; i dials) goes through proxy i.
     */
    List<Cluster> joinBehindProxies(int n, IntFunction<Cluster.Listener> listeners) throws Exception {
        List<InetSocketAddress> listen = freeAddresses(n);
        proxies = FaultProxies.start(Collections.nCopies(n, new InetSocketAddress("127.0.0.1", 0)), listen);
        return joined(attempt(proxies.addresses(), listeners, (list, i) -> config(list, i).listeningOn(listen.get(i))));
    }

    /** The proxies in front of the members ({@link #joinBehindProxies}). */
    FaultProxies proxies() {
        return proxies;
    }

    private static ClusterConfig config(List<InetSocketAddress> members, int index) {
        return new ClusterConfig(members, index, SECRET, 50, 1_000, 10_000);
    }

    /** The attempt's clusters; if any member did not join, every one's failure and the logs say why. */
    private List<Cluster> joined(Attempt attempt) {
        IllegalStateException failed = null;
        for (int m = 0; m < attempt.joined().size(); m++) {
            if (attempt.failures()[m] != null) {
                if (failed == null) {
                    failed = new IllegalStateException("member " + m + " did not join; the members' logs:\n" + String.join("\n",
                            logs.subList(logs.size() - attempt.joined().size(), logs.size()).stream()
                                    .map(log -> log.toString(StandardCharsets.UTF_8)).toList()), attempt.failures()[m]);
                } else {
                    failed.addSuppressed(attempt.failures()[m]);
                }
            }
        }
        if (failed != null) {
            throw failed;
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
        return attempt(freeAddresses(n), listeners, configs);
    }

    /** {@code n} distinct free ports: all held open until all are chosen (a port closed at once can be handed out again). */
    private static List<InetSocketAddress> freeAddresses(int n) throws Exception {
        List<InetSocketAddress> addresses = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                addresses.add(new InetSocketAddress("127.0.0.1", s.getLocalPort()));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return addresses;
    }

    private Attempt attempt(List<InetSocketAddress> members, IntFunction<Cluster.Listener> listeners, Configs configs) throws Exception {
        int n = members.size();
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
                    joined[index] = Cluster.join(configs.of(members, index), TermStore.inMemory(), listeners.apply(index), log);
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
        if (proxies != null) {
            proxies.close();
        }
    }
}
