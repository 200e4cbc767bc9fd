package io.fournines.engine.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A frame whose handling fails fails there, logged; the connection, and so the peer, stays. */
class ClusterFrameFailureTest {

    private final LoopbackClusters clusters = new LoopbackClusters();

    @AfterEach
    void close() {
        clusters.close();
    }

    @Test
    void aControlMessageThatThrowsWhereItArrivesLeavesTheConnectionUp() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        List<String> lost = new CopyOnWriteArrayList<>();
        List<Cluster> members = clusters.join(2, index -> new Cluster.Listener() {
            @Override
            public void onControl(int fromMember, ControlKind kind, long jobId, String text) {
                if (text.equals("bad")) {
                    throw new IllegalArgumentException("snapshot 75 is not newer than the committed snapshot 75");
                }
                received.add(index + ": " + text);
            }

            @Override
            public void onMemberLost(int member, String cause) {
                lost.add(index + " lost " + member + ": " + cause);
            }
        });
        members.get(0).sendControl(1, ControlKind.FAIL, 7, "bad");
        members.get(0).sendControl(1, ControlKind.FAIL, 7, "after");
        await().atMost(5, TimeUnit.SECONDS).until(() -> received.contains("1: after"));
        assertThat(clusters.log(1)).contains("control message FAIL for job 7 from member 0 failed here (the connection stays): "
                + "java.lang.IllegalArgumentException: snapshot 75 is not newer than the committed snapshot 75");
        Thread.sleep(300);  // several heartbeats: a closed connection would have been noticed
        assertThat(lost).isEmpty();
        assertThat(members.get(1).lostCause(0)).isNull();
    }
}
