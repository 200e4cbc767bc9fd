package io.fournines.engine.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterSecretTest {

    @Test
    void theApiTokenIsAnHmacOfAFixedLabelSoTheRunnerCanComputeIt() {
        // scenarios/tests/test_cluster_run.py asserts the same value for the runner's token.
        ClusterSecret secret = ClusterSecret.of("cluster-test-secret-0123456789", "test");
        assertThat(secret.apiToken()).isEqualTo("283ca2ed9fc1b7cf62d9ea251c374f96c41300e43b9f430c26806721e09da4f6");
        assertThat(secret.acceptsToken(secret.apiToken())).isTrue();
        assertThat(secret.acceptsToken(ClusterSecret.of("another-secret-0123456789", "test").apiToken())).isFalse();
        assertThat(secret.acceptsToken(null)).isFalse();
    }

    @Test
    void aShortSecretIsRefusedNamingWhereItCameFrom() {
        assertThatThrownBy(() -> ClusterSecret.of("short", "/run/secret")).hasMessage(
                "/run/secret: the cluster secret must have at least 16 characters; has 5");
    }
}
