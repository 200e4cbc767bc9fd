package io.fournines.loadgen;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** {@code create-topic}: a fresh topic with the partitions and topic configs (fsync policy) a run asks for. */
@Command(name = "create-topic",
        description = {"Creates a topic with the given partitions, replication factor and topic configs, e.g. --config flush.messages=1.",
            "Brokers still registering with the controller (fewer than the replication factor) are waited for, up to --wait-s.",
            "Exit: 0 created, 1 it exists already or Kafka refused (reason on stderr)."})
final class CreateTopicCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    TopicOptions kafka;

    @Option(names = "--partitions", required = true, description = "partitions, at least 1")
    int partitions;

    @Option(names = "--replication-factor", defaultValue = "1", description = "replicas of each partition (default ${DEFAULT-VALUE})")
    short replicationFactor;

    @Option(names = "--wait-s", defaultValue = "60", description = "how long to wait for the brokers and for enough of them (default ${DEFAULT-VALUE})")
    long waitSeconds;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "a topic config, repeatable (flush.messages, flush.ms, ...)")
    Map<String, String> configs = Map.of();

    @Override
    public Integer call() throws Exception {
        if (partitions < 1) {
            System.err.println("loadgen: --partitions must be at least 1; is " + partitions);
            return 2;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap))) {
            while (true) {
                try {
                    admin.createTopics(List.of(new NewTopic(kafka.topic, partitions, replicationFactor).configs(configs)))
                            .all().get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000_000L), TimeUnit.SECONDS);
                    break;
                } catch (ExecutionException e) {
                    // A freshly started cluster's brokers register with the controller one by one.
                    if (e.getCause() instanceof InvalidReplicationFactorException && System.nanoTime() < deadline) {
                        Thread.sleep(500);
                        continue;
                    }
                    String why = e.getCause() instanceof TopicExistsException ? "it exists already" : e.getCause().toString();
                    System.err.println("loadgen: cannot create topic " + kafka.topic + " on " + kafka.bootstrap + ": " + why);
                    return 1;
                }
            }
        }
        System.out.println("{\"type\":\"topic\",\"topic\":\"" + kafka.topic + "\",\"partitions\":" + partitions + "}");
        return 0;
    }
}
