package io.fournines.kafkalocal;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The child JVM's main: one real KRaft broker+controller on loopback, as {@code kafka-storage.sh
 * format} and {@code kafka-server-start.sh} would run it, but in one JVM. Prints
 * {@code {"type":"ready","bootstrap":"127.0.0.1:PORT"}} on stdout once clients can connect. Stops
 * (controlled shutdown, then its data directory removed) on SIGTERM, and by itself when the process
 * that started it dies, so a crashed test run or runner leaves no broker behind.
 *
 * <pre>java -cp BROKER_CLASSPATH io.fournines.kafkalocal.LocalKafkaBroker DATA_DIR LOG_DIR</pre>
 */
public final class LocalKafkaBroker {

    private static final String LOOPBACK = "127.0.0.1";

    private LocalKafkaBroker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LocalKafkaBroker DATA_DIR LOG_DIR");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]).toAbsolutePath();
        Path logDir = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(dataDir);
        Files.createDirectories(logDir);
        // Before any Kafka class exists: their static loggers configure log4j2 on first use.
        System.setProperty("log4j2.configurationFile", writeLogConfig(dataDir, logDir).toString());
        exitWithParent();

        int port = freePort();
        Properties props = serverProperties(dataDir.resolve("log"), port, freePort());
        Path propsFile = dataDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(propsFile)) {
            props.store(out, "fournines local broker");
        }
        // = kafka-storage.sh format; execute() returns instead of calling System.exit.
        PrintStream formatOutput = new PrintStream(Files.newOutputStream(logDir.resolve("broker-format.log")), true, StandardCharsets.UTF_8);
        int formatted = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", propsFile.toString()}, formatOutput);
        if (formatted != 0) {
            System.err.println("kafka storage format failed with " + formatted + "; see " + logDir.resolve("broker-format.log"));
            System.exit(1);
        }

        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
            deleteRecursively(dataDir);
        }, "local-broker-shutdown"));
        server.startup();
        String bootstrap = LOOPBACK + ":" + port;
        awaitBrokerRegistered(bootstrap);
        System.out.println("{\"type\":\"ready\",\"bootstrap\":\"" + bootstrap + "\"}");
        System.out.flush();
        server.awaitShutdown();
    }

    /** One node that is broker and controller, on loopback, with single-replica internal topics. */
    static Properties serverProperties(Path logDirs, int port, int controllerPort) {
        Properties p = new Properties();
        p.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                // The static voter form: it formats without --standalone, but needs the concrete port.
                Map.entry("controller.quorum.voters", "1@" + LOOPBACK + ":" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://" + LOOPBACK + ":" + port + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT"),
                Map.entry("log.dirs", logDirs.toString()),
                Map.entry("num.partitions", "1"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Topics are created explicitly, with the partitions a scenario asks for.
                Map.entry("auto.create.topics.enable", "false")));
        return p;
    }

    /** Binds port 0 and frees it again: the controller's voter string needs a concrete port. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }

    private static void awaitBrokerRegistered(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        }
    }

    /** Ends this JVM (running the shutdown hook) when the process that started it is gone. */
    private static void exitWithParent() {
        ProcessHandle.current().parent().ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> {
                    System.err.println("local broker: parent process " + parent.pid() + " exited; stopping");
                    System.exit(0);
                }),
                () -> System.exit(0));
    }

    private static Path writeLogConfig(Path dataDir, Path logDir) throws IOException {
        Path file = dataDir.resolve("log4j2.properties");
        try (InputStream template = LocalKafkaBroker.class.getResourceAsStream("log4j2-broker.properties")) {
            String text = new String(template.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("@LOG_FILE@", logDir.resolve("broker.log").toString().replace("\\", "/"));
            Files.writeString(file, text);
        }
        return file;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("local broker: could not remove " + dir + ": " + e);
        }
    }
}
