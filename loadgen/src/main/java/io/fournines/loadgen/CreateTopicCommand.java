package io.fournines.loadgen;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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
        description = {"Creates a topic with replication factor 1 and the given topic configs, e.g. --config flush.messages=1.",
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

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "a topic config, repeatable (flush.messages, flush.ms, ...)")
    Map<String, String> configs = Map.of();

    @Override
    public Integer call() throws Exception {
        if (partitions < 1) {
            System.err.println("loadgen: --partitions must be at least 1; is " + partitions);
            return 2;
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap))) {
            admin.createTopics(List.of(new NewTopic(kafka.topic, partitions, replicationFactor).configs(configs))).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            String why = e.getCause() instanceof TopicExistsException ? "it exists already" : e.getCause().toString();
            System.err.println("loadgen: cannot create topic " + kafka.topic + " on " + kafka.bootstrap + ": " + why);
            return 1;
        }
        System.out.println("{\"type\":\"topic\",\"topic\":\"" + kafka.topic + "\",\"partitions\":" + partitions + "}");
        return 0;
    }
}
