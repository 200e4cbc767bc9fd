package io.fournines.kafkalocal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts and stops a real single-node Kafka broker ({@link LocalKafkaBroker}) in a child JVM from
 * the broker jars Maven fetched (the {@code broker.classpath} resource). JDK only, so a test or a
 * tool that uses it does not get the broker's jars on its own classpath.
 *
 * <pre>
 * try (LocalKafka kafka = LocalKafka.start(logDir)) {
 *     String bootstrap = kafka.bootstrap();
 *     ...
 * }   // SIGTERM: controlled shutdown, data removed; SIGKILL after STOP_GRACE
 * </pre>
 *
 * {@code main} does the same for the runner: {@code java -cp fournines-kafka-local.jar
 * io.fournines.kafkalocal.LocalKafka LOG_DIR} prints the ready line and keeps the broker until it is
 * sent SIGTERM or its parent dies.
 */
public final class LocalKafka implements AutoCloseable {

    /** As kafka-run-class.sh starts a broker, with a smaller heap: a local broker holds little. */
    static final List<String> JVM_FLAGS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
            "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true");
    static final long START_TIMEOUT_SECONDS = 90;
    static final long STOP_GRACE_SECONDS = 20;
    private static final Pattern READY = Pattern.compile("\\{\"type\":\"ready\",\"bootstrap\":\"([^\"]+)\"}");

    private final Process process;
    private final String bootstrap;
    private final Path dataDir;

    private LocalKafka(Process process, String bootstrap, Path dataDir) {
        this.process = process;
        this.bootstrap = bootstrap;
        this.dataDir = dataDir;
    }

    /**
     * Starts a broker whose logs ({@code broker.log}, {@code broker-format.log}, {@code broker.out})
     * go into {@code logDir} and whose data goes into a temporary directory, removed when it stops.
     * Returns once clients can connect.
     *
     * @throws IOException if the broker does not start; the message holds the end of its output
     */
    public static LocalKafka start(Path logDir) throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        Path dataDir = Files.createTempDirectory("fournines-kafka-");
        Path out = logDir.resolve("broker.out");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_FLAGS);
        command.addAll(List.of("-cp", brokerClasspath(), LocalKafkaBroker.class.getName(), dataDir.toString(), logDir.toAbsolutePath().toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            Matcher ready = READY.matcher(Files.readString(out));
            if (ready.find()) {
                return new LocalKafka(process, ready.group(1), dataDir);
            }
            if (!process.isAlive()) {
                throw new IOException("the local Kafka broker exited with " + process.exitValue() + " before it was ready; its output ("
                        + out + ") ends with:\n" + tail(out));
            }
            Thread.sleep(50);
        }
        new LocalKafka(process, null, dataDir).close();
        throw new IOException("the local Kafka broker was not ready within " + START_TIMEOUT_SECONDS + " s; its output (" + out + ") ends with:\n" + tail(out));
    }

    /** host:port for {@code bootstrap.servers}. */
    public String bootstrap() {
        return bootstrap;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGTERM (a controlled shutdown, ~0.5 s, exit code 143), SIGKILL if it hangs; the data is removed. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        if (Files.exists(dataDir)) {
            // Killed before its shutdown hook could clean up.
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("local Kafka: could not remove " + dataDir + ": " + e);
            }
        }
    }

    /** The broker's jars (written by the build) and this module's classes. */
    static String brokerClasspath() throws IOException {
        String jars;
        try (InputStream in = LocalKafka.class.getResourceAsStream("broker.classpath")) {
            if (in == null) {
                throw new IOException("broker.classpath is missing next to " + LocalKafka.class.getName()
                        + ": build infra/kafka-local with Maven (it writes the broker's classpath there)");
            }
            jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        try {
            String own = Path.of(LocalKafka.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            return own + File.pathSeparator + jars;
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate " + LocalKafka.class.getName() + "'s own classes", e);
        }
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    /** For the runner: start, print the ready line, hold the broker until SIGTERM or until the parent dies. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java -cp fournines-kafka-local.jar io.fournines.kafkalocal.LocalKafka LOG_DIR");
            System.exit(2);
        }
        LocalKafka kafka = start(Path.of(args[0]));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                kafka.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "local-kafka-stop"));
        System.out.println("{\"type\":\"ready\",\"bootstrap\":\"" + kafka.bootstrap() + "\",\"broker_pid\":" + kafka.pid() + "}");
        System.out.flush();
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        kafka.process.waitFor();
        System.err.println("local Kafka: the broker exited with " + kafka.process.exitValue());
        System.exit(1);
    }
}
