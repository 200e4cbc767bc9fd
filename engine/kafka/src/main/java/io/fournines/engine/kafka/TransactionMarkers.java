package io.fournines.engine.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Tells whether a transaction of the transactional sink committed. Each transaction also commits,
 * atomically with its records ({@code sendOffsetsToTransaction}), the offset {@code sequence} in the
 * consumer group {@code <prefix>-<instance>} for partition 0 of the topic {@code <prefix>-commits}
 * (created on first use; it holds no records, the offsets only name it). So the group's committed
 * offset is the sequence of the instance's last committed transaction: after a restore the sink
 * sends a prepared transaction again only if its marker is behind. Public Kafka API only: resuming
 * another producer's open transaction would need the client's internals.
 */
final class TransactionMarkers {

    private final String prefix;
    private final TopicPartition marker;

    TransactionMarkers(String transactionalIdPrefix) {
        this.prefix = transactionalIdPrefix;
        this.marker = new TopicPartition(transactionalIdPrefix + "-commits", 0);
    }

    ConsumerGroupMetadata group(int instance) {
        return new ConsumerGroupMetadata(prefix + "-" + instance);
    }

    Map<TopicPartition, OffsetAndMetadata> marker(long sequence) {
        return Map.of(marker, new OffsetAndMetadata(sequence));
    }

    /** Creates the marker topic if it does not exist yet. */
    void ensureTopic(Map<String, Object> clientProperties, Duration timeout) {
        try (Admin admin = admin(clientProperties)) {
            admin.createTopics(List.of(new NewTopic(marker.topic(), Optional.of(1), Optional.empty()))).all()
                 .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw failure("create the topic '" + marker.topic() + "'", e);
            }
        } catch (Exception e) {
            throw failure("create the topic '" + marker.topic() + "'", e);
        }
    }

    /**
     * What the sink's {@code init} waits on the network for, made ready ahead: the marker topic, and
     * the broker's transaction and group coordinators, whose internal topics a fresh broker creates
     * on first use (50 partitions each: seconds on a small machine).
     */
    void prepare(Map<String, Object> clientProperties, Duration timeout) {
        ensureTopic(clientProperties, timeout);
        committed(clientProperties, List.of(0), timeout);
        try (Admin admin = admin(clientProperties)) {
            admin.describeTransactions(List.of(prefix + "-0-0")).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TransactionalIdNotFoundException)) {
                throw failure("reach the transaction coordinator", e);
            }
        } catch (Exception e) {
            throw failure("reach the transaction coordinator", e);
        }
    }

    /** Instance (global index) -> sequence of its last committed transaction; instances that never committed are absent. */
    Map<Integer, Long> committed(Map<String, Object> clientProperties, Collection<Integer> instances, Duration timeout) {
        Map<String, ListConsumerGroupOffsetsSpec> groups = new HashMap<>();
        instances.forEach(i -> groups.put(group(i).groupId(), new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(marker))));
        try (Admin admin = admin(clientProperties)) {
            Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = admin.listConsumerGroupOffsets(groups).all()
                                                                               .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<Integer, Long> committed = new HashMap<>();
            for (int i : instances) {
                OffsetAndMetadata offset = offsets.getOrDefault(group(i).groupId(), Map.of()).get(marker);
                if (offset != null) {
                    committed.put(i, offset.offset());
                }
            }
            return committed;
        } catch (Exception e) {
            throw failure("read the commit markers of groups " + groups.keySet(), e);
        }
    }

    private static Admin admin(Map<String, Object> clientProperties) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)));
    }

    private static IllegalStateException failure(String what, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException("the transactional Kafka sink cannot " + what + ": " + e, e);
    }
}
