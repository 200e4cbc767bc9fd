package io.fournines.engine.jmh;

import io.fournines.engine.cluster.ControlKind;

import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.ClusterJobNetwork;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.TermStore;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The member transport against plain NIO on loopback: one-way throughput of 16 KiB packets (the
 * engine's packet size) and the round trip of 64 B packets, each received into a fresh byte[] as
 * the receiver tasklet gets it. Netty runs through the cluster's own code (two members in this JVM,
 * handshake included); NIO is the least a hand-written transport would do: blocking channels, one
 * thread per direction, length-prefixed frames.
 *
 * <pre>java -cp engine-benchmarks.jar io.fournines.engine.jmh.TransportBenchmark [seconds]</pre>
 */
public final class TransportBenchmark {

    private static final int BIG = 16_384;
    private static final int SMALL = 64;
    /** The members' log: closing one member makes the other log the loss, which is no news here. */
    private static final java.io.PrintStream QUIET_LOG = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

    private TransportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        long nanos = (long) (seconds * 1e9);
        System.out.printf(Locale.ROOT, "%-6s %14s %12s %12s %12s %12s%n", "", "16KiB pkts/s", "MB/s", "rtt p50 us", "rtt p99 us", "rtt p99.99 us");
        report("netty", nettyThroughput(nanos), nettyRoundTrips(nanos));
        report("nio", nioThroughput(nanos), nioRoundTrips(nanos));
    }

    private static void report(String name, double packetsPerSecond, Histogram rtt) {
        System.out.printf(Locale.ROOT, "%-6s %14.0f %12.1f %12.1f %12.1f %12.1f%n", name, packetsPerSecond, packetsPerSecond * BIG / 1e6,
                rtt.getValueAtPercentile(50) / 1e3, rtt.getValueAtPercentile(99) / 1e3, rtt.getValueAtPercentile(99.99) / 1e3);
    }

    // Netty, through the cluster's code.

    private static Cluster[] twoMembers() throws Exception {
        List<InetSocketAddress> members = List.of(freeAddress(), freeAddress());
        ClusterSecret secret = ClusterSecret.of("transport-benchmark-secret", "benchmark");
        Cluster.Listener quiet = new Cluster.Listener() {
            @Override
            public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
            }

            @Override
            public void onMemberLost(int member, String cause) {
            }
        };
        CompletableFuture<Cluster> first = CompletableFuture.supplyAsync(() -> {
            try {
                return Cluster.join(new ClusterConfig(members, 0, secret, 200, 10_000, 10_000), TermStore.inMemory(), quiet, QUIET_LOG);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Cluster second = Cluster.join(new ClusterConfig(members, 1, secret, 200, 10_000, 10_000), TermStore.inMemory(), quiet, QUIET_LOG);
        return new Cluster[] {first.get(), second};
    }

    private static double nettyThroughput(long nanos) throws Exception {
        Cluster[] c = twoMembers();
        try {
            AtomicLong received = new AtomicLong();
            c[1].jobNetwork(1).registerReceiver(0, 0, (entries, packet) -> received.incrementAndGet());
            ClusterJobNetwork sender = c[0].jobNetwork(1);
            byte[] packet = new byte[BIG];
            long sent = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                // A full outgoing buffer is the sender's backpressure, as for the sender tasklet.
                if (sender.sendData(1, 0, 1, packet)) {
                    sent++;
                } else {
                    LockSupport.parkNanos(10_000);
                }
            }
            while (received.get() < sent) {
                LockSupport.parkNanos(100_000);
            }
            return sent / ((System.nanoTime() - start) / 1e9);
        } finally {
            c[0].close();
            c[1].close();
        }
    }

    private static Histogram nettyRoundTrips(long nanos) throws Exception {
        Cluster[] c = twoMembers();
        try {
            ClusterJobNetwork a = c[0].jobNetwork(1);
            ClusterJobNetwork b = c[1].jobNetwork(1);
            ArrayBlockingQueue<byte[]> back = new ArrayBlockingQueue<>(1);
            b.registerReceiver(0, 0, (entries, packet) -> b.sendData(0, 0, 1, packet));
            a.registerReceiver(0, 1, (entries, packet) -> back.offer(packet));
            return roundTrips(nanos, () -> {
                a.sendData(1, 0, 1, new byte[SMALL]);
                back.take();
            });
        } finally {
            c[0].close();
            c[1].close();
        }
    }

    // Plain NIO.

    private static double nioThroughput(long nanos) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel out = SocketChannel.open(server.getLocalAddress());
             SocketChannel in = server.accept()) {
            out.socket().setTcpNoDelay(true);
            AtomicLong received = new AtomicLong();
            Thread reader = new Thread(() -> {
                try {
                    while (true) {
                        readFrame(in);
                        received.incrementAndGet();
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
            reader.setDaemon(true);
            reader.start();
            ByteBuffer frame = ByteBuffer.allocateDirect(4 + BIG);
            long sent = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < nanos) {
                frame.clear();
                frame.putInt(BIG).put(new byte[BIG]).flip();
                while (frame.hasRemaining()) {
                    out.write(frame);
                }
                sent++;
            }
            while (received.get() < sent) {
                LockSupport.parkNanos(100_000);
            }
            return sent / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static Histogram nioRoundTrips(long nanos) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel a = SocketChannel.open(server.getLocalAddress());
             SocketChannel b = server.accept()) {
            a.socket().setTcpNoDelay(true);
            b.socket().setTcpNoDelay(true);
            Thread echo = new Thread(() -> {
                try {
                    while (true) {
                        writeFrame(b, readFrame(b));
                    }
                } catch (IOException closed) {
                    // the benchmark is over
                }
            });
            echo.setDaemon(true);
            echo.start();
            return roundTrips(nanos, () -> {
                writeFrame(a, new byte[SMALL]);
                readFrame(a);
            });
        }
    }

    private static byte[] readFrame(SocketChannel ch) throws IOException {
        ByteBuffer length = ByteBuffer.allocate(4);
        readFully(ch, length);
        ByteBuffer body = ByteBuffer.allocate(length.flip().getInt());
        readFully(ch, body);
        return body.array();
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("closed");
            }
        }
    }

    private static void writeFrame(SocketChannel ch, byte[] body) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).flip();
        while (frame.hasRemaining()) {
            ch.write(frame);
        }
    }

    @FunctionalInterface
    private interface RoundTrip {
        void run() throws Exception;
    }

    private static Histogram roundTrips(long nanos, RoundTrip trip) throws Exception {
        Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            long t0 = System.nanoTime();
            trip.run();
            h.recordValue(System.nanoTime() - t0);
        }
        return h;
    }

    private static InetSocketAddress freeAddress() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return new InetSocketAddress("127.0.0.1", s.getLocalPort());
        }
    }
}
