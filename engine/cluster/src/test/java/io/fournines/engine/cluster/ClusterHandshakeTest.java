package io.fournines.engine.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two members in one JVM, on loopback: the handshake admits only a member that proves the cluster's secret. */
class ClusterHandshakeTest {

    private final LoopbackClusters clusters = new LoopbackClusters();

    @AfterEach
    void close() {
        clusters.close();
    }

    @Test
    void aMemberWithTheWrongSecretIsRefusedAndTheOtherNeverJoins() throws Exception {
        ClusterSecret wrong = ClusterSecret.of("not-the-cluster-secret-42", "test");
        LoopbackClusters.Attempt attempt = clusters.attempt(2, i -> LoopbackClusters.DEAF,
                (members, i) -> new ClusterConfig(members, i, i == 0 ? LoopbackClusters.SECRET : wrong, 50, 1_000, 3_000));
        assertThat(attempt.failures()[1]).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused this member").hasMessageContaining("wrong secret");
        assertThat(attempt.failures()[0]).as("member 0 waits for a member 1 that never proves the secret").hasMessageContaining("not joined");
        assertThat(clusters.log(0)).contains("refused a connection").contains("does not know the cluster secret");
    }

    /** The first connection is accepted and closed before any handshake (as a proxy might): joining dials again. */
    @Test
    void aConnectionClosedBeforeTheHandshakeIsDialedAgainWhileJoining() throws Exception {
        ServerSocket stand = new ServerSocket();
        stand.setReuseAddress(true);
        stand.bind(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress first = new InetSocketAddress("127.0.0.1", stand.getLocalPort());
        InetSocketAddress second;
        try (ServerSocket s = new ServerSocket(0)) {
            second = new InetSocketAddress("127.0.0.1", s.getLocalPort());
        }
        List<InetSocketAddress> members = List.of(first, second);
        CompletableFuture<Cluster> member1 = CompletableFuture.supplyAsync(() -> join(members, 1));
        stand.accept().close();
        stand.close();
        Cluster member0 = join(members, 0);
        try {
            assertThat(member1.get(10, TimeUnit.SECONDS).coordinator()).isZero();
        } finally {
            member0.close();
            member1.thenAccept(Cluster::close);
        }
    }

    private static Cluster join(List<InetSocketAddress> members, int index) {
        try {
            return Cluster.join(new ClusterConfig(members, index, LoopbackClusters.SECRET, 50, 1_000, 10_000), TermStore.inMemory(), LoopbackClusters.DEAF,
                    new PrintStream(OutputStream.nullOutputStream()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aMemberGivenAnotherMemberListIsRefusedSayingSo() throws Exception {
        LoopbackClusters.Attempt attempt = clusters.attempt(2, i -> LoopbackClusters.DEAF, (members, i) -> {
            List<InetSocketAddress> list = new ArrayList<>(members);
            if (i == 1) {
                list.add(new InetSocketAddress("127.0.0.1", 9));
            }
            return new ClusterConfig(list, i, LoopbackClusters.SECRET, 50, 1_000, 3_000);
        });
        assertThat(attempt.failures()[1]).hasMessageContaining("was given a different member list: every member must be given the same list");
        assertThat(clusters.log(0)).contains("refused a connection").contains("different member list");
    }

    @Test
    void aPeerThatNeverAnswersTheChallengeIsClosedWithinTheHandshakeTimeout() throws Exception {
        Cluster member = clusters.join(2, i -> LoopbackClusters.DEAF).get(0);
        try (Socket silent = connect(member)) {
            assertThat(readFrame(silent)).as("the challenge").hasSize(1 + 32);
            long start = System.nanoTime();
            assertThat(silent.getInputStream().read()).as("closed").isEqualTo(-1);
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(waitedMillis).isBetween(MemberConnectionHandler.HANDSHAKE_TIMEOUT_MILLIS - 1_000, MemberConnectionHandler.HANDSHAKE_TIMEOUT_MILLIS + 3_000);
        }
        assertThat(clusters.log(0)).contains("no handshake within " + MemberConnectionHandler.HANDSHAKE_TIMEOUT_MILLIS + " ms");
    }

    @Test
    void aLargeFrameBeforeTheHandshakeIsRefusedAtOnce() throws Exception {
        Cluster member = clusters.join(2, i -> LoopbackClusters.DEAF).get(0);
        try (Socket intruder = connect(member)) {
            readFrame(intruder);
            DataOutputStream out = new DataOutputStream(intruder.getOutputStream());
            out.writeInt(60 << 20);
            out.write(new byte[4096]);
            out.flush();
            long start = System.nanoTime();
            assertThat(drain(intruder)).as("closed").isTrue();
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
        }
        assertThat(clusters.log(0)).contains("a frame of " + (60 << 20) + " bytes; at most " + MemberFrameDecoder.HANDSHAKE_MAX_BYTES
                + " before the handshake");
    }

    @Test
    void acceptedConnectionsInTheirHandshakeAreCapped() throws Exception {
        Cluster member = clusters.join(2, i -> LoopbackClusters.DEAF).get(0);
        List<Socket> waiting = new ArrayList<>();
        try {
            for (int i = 0; i < Cluster.MAX_PENDING_HANDSHAKES; i++) {
                Socket s = connect(member);
                waiting.add(s);
                readFrame(s);
            }
            try (Socket oneTooMany = connect(member)) {
                assertThat(oneTooMany.getInputStream().read()).as("closed without a challenge").isEqualTo(-1);
            }
        } finally {
            for (Socket s : waiting) {
                s.close();
            }
        }
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() -> {
            try (Socket again = connect(member)) {
                assertThat(readFrame(again)).as("a challenge once the others have gone").hasSize(1 + 32);
            }
        });
        assertThat(clusters.log(0)).contains(Cluster.MAX_PENDING_HANDSHAKES + " connections are in their handshake already");
    }

    private static Socket connect(Cluster member) throws IOException {
        Socket s = new Socket();
        s.connect(member.config().address(member.self()), 2_000);
        s.setSoTimeout(15_000);
        return s;
    }

    /** One length-prefixed frame from the member. */
    private static byte[] readFrame(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

    /** Reads until the member closes the connection (true) or a reset says the same. */
    private static boolean drain(Socket s) throws IOException {
        try {
            while (s.getInputStream().read() != -1) {
                // the challenge's remains
            }
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }
}
