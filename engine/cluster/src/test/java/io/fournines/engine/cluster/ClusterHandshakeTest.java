package io.fournines.engine.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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
        LoopbackClusters.Attempt attempt = clusters.attempt(2, i -> LoopbackClusters.DEAF, i -> i == 0 ? LoopbackClusters.SECRET : wrong, 3_000);
        assertThat(attempt.failures()[1]).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused this member").hasMessageContaining("wrong secret");
        assertThat(attempt.failures()[0]).as("member 0 waits for a member 1 that never proves the secret").hasMessageContaining("not joined");
        assertThat(clusters.log(0)).contains("refused a connection").contains("does not know the cluster secret");
    }
}
