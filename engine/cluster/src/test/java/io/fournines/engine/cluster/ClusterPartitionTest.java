package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three members in this JVM, each behind a {@link FaultProxy}, with real connections: faults between
 * members, and what each then acts on. Member j's connection to member i (j &gt; i dials) goes
 * through proxy i. Failure timeout 1 s, heartbeats every 50 ms ({@link LoopbackClusters}).
 */
class ClusterPartitionTest {

    /**
     * The reported fault: two live members lose their connection (a reset) and reconnect. Before
     * views, each counted the other as having joined again, younger than itself, and each named the
     * other coordinator; the job's snapshots never committed again.
     */
    @Test
    void twoMembersThatLoseTheirConnectionAndReconnectAgreeOnOneCoordinator() throws Exception {
        try (LoopbackClusters loopback = new LoopbackClusters()) {
            List<Cluster> members = loopback.joinBehindProxies(3, i -> LoopbackClusters.DEAF);
            long before = members.get(0).view().term();
            assertThat(members).allSatisfy(c -> assertThat(c.coordinator()).as("member %d's coordinator as the cluster formed", c.self()).isZero());

            loopback.proxies().proxy(0).reset(1);
            await().atMost(10, TimeUnit.SECONDS).until(() -> members.get(1).lostCause(0) != null || members.get(0).view().term() > before);
            await().atMost(15, TimeUnit.SECONDS).until(() -> allActOnOneViewOf(members, all(3)) && members.get(0).view().term() > before);
            View agreed = members.get(0).view();
            Thread.sleep(1_000);  // and it holds
            assertThat(members).allSatisfy(c -> assertThat(c.view()).as("member %d's view; logs:%n%s", c.self(), logs(loopback)).isEqualTo(agreed));
        }
    }

    /**
     * A partition that keeps the connections open (only the silence tells): member 2 cut off from
     * members 0 and 1. Before views, each side counted the other lost and both restarted the job
     * alone. Now the majority acts on a view of the two of them, member 2 on none (its jobs pause)
     * and never installs one while cut off; healed, all three agree again.
     */
    @Test
    void aMemberCutOffFromTheOthersActsOnNoViewWhileTheMajorityKeepsOneAndAllAgreeWhenHealed() throws Exception {
        List<View> installedBy2 = new CopyOnWriteArrayList<>();
        try (LoopbackClusters loopback = new LoopbackClusters()) {
            List<Cluster> members = loopback.joinBehindProxies(3, i -> i != 2 ? LoopbackClusters.DEAF : new Cluster.Listener() {
                @Override
                public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
                }

                @Override
                public void onMemberLost(int member, String cause) {
                }

                @Override
                public void onViewChanged(View view) {
                    installedBy2.add(view);
                }
            });
            loopback.proxies().isolate(2, true);

            BitSet majority = new BitSet();
            majority.set(0, 2);
            await().atMost(10, TimeUnit.SECONDS).until(() -> members.get(2).view() == null
                    && allActOnOneViewOf(members.subList(0, 2), majority));
            installedBy2.clear();
            Thread.sleep(3_000);  // three failure timeouts: member 2 stands, and stands again, alone
            assertThat(installedBy2).as("views member 2 acted on while cut off; its log:%n%s", loopback.log(2)).isEmpty();
            assertThat(members.get(2).coordinator()).isEqualTo(-1);
            assertThat(allActOnOneViewOf(members.subList(0, 2), majority)).as("the majority's view; logs:%n%s", logs(loopback)).isTrue();

            loopback.proxies().isolate(2, false);
            await().atMost(20, TimeUnit.SECONDS).until(() -> allActOnOneViewOf(members, all(3)));
        }
    }

    /**
     * The member every other one dials, cut off and healed: its connections of both planes come back
     * (found by ./fournines chaos: healed, the others' data-plane handshakes with member 0 never
     * completed, and the job never took it back in).
     */
    @Test
    void aMemberDialedByTheOthersCutOffAndHealedHasBothPlanesBack() throws Exception {
        List<String> heardBy0 = new CopyOnWriteArrayList<>();
        try (LoopbackClusters loopback = new LoopbackClusters()) {
            List<Cluster> members = loopback.joinBehindProxies(3, i -> i != 0 ? LoopbackClusters.DEAF : new Cluster.Listener() {
                @Override
                public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
                    heardBy0.add(fromMember + " " + text);
                }

                @Override
                public void onMemberLost(int member, String cause) {
                }
            });
            loopback.proxies().isolate(0, true);
            BitSet majority = new BitSet();
            majority.set(1, 3);
            await().atMost(10, TimeUnit.SECONDS).until(() -> members.get(0).view() == null
                    && allActOnOneViewOf(members.subList(1, 3), majority));
            Thread.sleep(2_000);  // the others dial member 0 again and again meanwhile
            loopback.proxies().isolate(0, false);

            await().atMost(20, TimeUnit.SECONDS).until(() -> allActOnOneViewOf(members, all(3)));
            await().atMost(20, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                members.get(1).sendControl(0, ControlKind.FAIL, 7, "data plane");
                members.get(2).sendControl(0, ControlKind.FAIL, 7, "data plane");
                assertThat(heardBy0).as("logs:%n%s", logs(loopback)).contains("1 data plane", "2 data plane");
            });
        }
    }

    private static boolean allActOnOneViewOf(List<Cluster> members, BitSet of) {
        View first = members.get(0).view();
        return first != null && first.members().equals(of) && members.stream().allMatch(c -> first.equals(c.view()));
    }

    private static BitSet all(int n) {
        BitSet all = new BitSet();
        all.set(0, n);
        return all;
    }

    private static String logs(LoopbackClusters loopback) {
        return loopback.log(0) + loopback.log(1) + loopback.log(2);
    }
}
