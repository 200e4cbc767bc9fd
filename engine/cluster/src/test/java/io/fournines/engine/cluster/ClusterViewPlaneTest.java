package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Heartbeats on their own plane ({@link Plane}): three members in this JVM, failure timeout 1 s,
 * heartbeats every 50 ms ({@link LoopbackClusters}).
 */
class ClusterViewPlaneTest {

    /**
     * Member 0's data I/O thread is kept busy for twice the failure timeout (its listener blocks, as
     * decoding a large restore would). With heartbeats behind data on one thread, the others counted
     * it lost after the failure timeout; on their own plane they keep coming, and nobody is lost.
     */
    @Test
    void aDataThreadBusyForTwiceTheFailureTimeoutLosesNoMember() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        try (LoopbackClusters loopback = new LoopbackClusters()) {
            List<Cluster> members = loopback.join(3, i -> i != 0 ? LoopbackClusters.DEAF : new Cluster.Listener() {
                @Override
                public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
                    busy.countDown();
                    sleep(2_000);
                }

                @Override
                public void onMemberLost(int member, String cause) {
                }
            });
            View before = members.get(0).view();
            members.get(1).sendControl(0, ControlKind.SUBMIT, 1, "keep the data thread busy");
            assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(2_500);

            for (Cluster c : members) {
                for (int m = 0; m < 3; m++) {
                    assertThat(c.lostCause(m)).as("member %d's verdict on member %d; logs:%n%s", c.self(), m, logs(loopback)).isNull();
                }
                assertThat(c.view()).as("member %d's view", c.self()).isEqualTo(before);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String logs(LoopbackClusters loopback) {
        return loopback.log(0) + loopback.log(1) + loopback.log(2);
    }
}
