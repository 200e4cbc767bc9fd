package io.fournines.engine.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a fresh broker (this class's own), preparing for a transactional sink creates what the sink's
 * start-up would otherwise wait for inside the job: its commit-marker topic and the broker's
 * transaction and group coordinators' internal topics.
 */
class TransactionalSinkPreparationTest extends BrokerAndEngineTest {

    private static final Set<String> READIED = Set.of("prepared-out-commits", "__transaction_state", "__consumer_offsets");

    @Test
    void preparingCreatesTheMarkerTopicAndTheCoordinatorsTopics() throws Exception {
        assertThat(topics()).doesNotContainAnyElementsOf(READIED);

        KafkaSinks.prepareTransactional(clientProps(), "prepared-out");

        assertThat(topics()).containsAll(READIED);
        KafkaSinks.prepareTransactional(clientProps(), "prepared-out");  // again: nothing to create, no failure
    }

    private static Set<String> topics() throws Exception {
        try (Admin admin = Admin.create(clientProps())) {
            return admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
        }
    }
}
