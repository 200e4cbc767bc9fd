package io.fournines.engine.member;

import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.JobControl;
import io.fournines.engine.cluster.JobRunner;
import io.fournines.engine.cluster.TermStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;

/**
 * {@code serve}: one member of a static cluster, running the jobs submitted through its management
 * API with the {@link JobRunner} the application gives it (the member knows nothing of what a job computes).
 */
@Command(name = "serve",
        description = {
            "Joins a static cluster (every member gets the same member list and secret), serves the management API and runs",
            "the jobs submitted to it until SIGTERM/SIGINT. Prints {\"type\":\"ready\",...} on stdout once every member has joined;",
            "each job writes its files into DIR/job-ID. The member keeps its term and vote (who coordinates is elected by a majority)",
            "in DIR/" + ServeCommand.TERM_FILE + ": start a member index again with the same DIR.",
            "Exit: 0 stopped, 1 could not join, 2 bad arguments."})
public final class ServeCommand implements Callable<Integer> {

    /** In --out: the member's term and vote, which must survive its process. */
    static final String TERM_FILE = "view-term";

    private final JobRunner runner;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--index", required = true, paramLabel = "I", description = "this member's index in the member list, from 0")
    int index;

    @Option(names = "--members", paramLabel = "HOST:PORT,...", split = ",", description = "every member's address, in index order")
    List<String> members;

    @Option(names = "--members-file", paramLabel = "FILE", description = "the member list, one HOST:PORT a line (instead of --members)")
    Path membersFile;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "the cluster secret; default: the " + ClusterSecret.ENV + " environment variable")
    Path secretFile;

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "where this member listens, when its address in the list is a proxy in front of it (default: that address)")
    String listen;

    @Option(names = "--http", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0", description = "the management API's address (default: ${DEFAULT-VALUE})")
    String http;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "where jobs write their files")
    Path out;

    @Option(names = "--heartbeat-ms", defaultValue = "" + ClusterConfig.DEFAULT_HEARTBEAT_MILLIS, description = "heartbeat interval (default: ${DEFAULT-VALUE})")
    long heartbeatMillis;

    @Option(names = "--failure-timeout-ms", defaultValue = "" + ClusterConfig.DEFAULT_FAILURE_TIMEOUT_MILLIS,
            description = "a member silent this long is lost (default: ${DEFAULT-VALUE})")
    long failureTimeoutMillis;

    @Option(names = "--join-timeout-ms", defaultValue = "" + ClusterConfig.DEFAULT_JOIN_TIMEOUT_MILLIS,
            description = "how long to wait for every member at start (default: ${DEFAULT-VALUE})")
    long joinTimeoutMillis;

    @Option(names = "--snapshot-backups", defaultValue = "1",
            description = "other members that keep a copy of each member's snapshot state, for jobs with a guarantee (default: ${DEFAULT-VALUE})")
    int snapshotBackups;

    @Option(names = "--scale-out-delay-ms", defaultValue = "2000",
            description = "how long after a lost member joins again a job with snapshots is restarted to take it in (default: ${DEFAULT-VALUE})")
    long scaleOutDelayMillis;

    public ServeCommand(JobRunner runner) {
        this.runner = runner;
    }

    @Override
    public Integer call() throws Exception {
        ClusterConfig config;
        InetSocketAddress httpAddress;
        try {
            config = new ClusterConfig(memberList(), index, ClusterSecret.load(secretFile), heartbeatMillis, failureTimeoutMillis, joinTimeoutMillis);
            if (listen != null) {
                config = config.listeningOn(ClusterConfig.address(listen));
            }
            httpAddress = ClusterConfig.address(http);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("member: " + e.getMessage());
            return 2;
        }
        Files.createDirectories(out);
        if (snapshotBackups < 0) {
            System.err.println("member: --snapshot-backups must be 0 or more; is " + snapshotBackups);
            return 2;
        }
        if (scaleOutDelayMillis < 0) {
            System.err.println("member: --scale-out-delay-ms must be 0 or more; is " + scaleOutDelayMillis);
            return 2;
        }
        TermStore terms;
        try {
            terms = TermStore.inFile(out.resolve(TERM_FILE));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println("member: " + e.getMessage());
            return 2;
        }
        JobControl member = new JobControl(out, runner, System.err, snapshotBackups, Duration.ofMillis(scaleOutDelayMillis));
        Cluster cluster;
        try {
            cluster = Cluster.join(config, terms, member, System.err);
        } catch (TimeoutException | IllegalStateException e) {
            System.err.println("member: " + e.getMessage());
            return 1;
        }
        member.joined(cluster);
        CountDownLatch stopped = new CountDownLatch(1);
        try (cluster; ManagementApi api = new ManagementApi(httpAddress, member, config.secret(), System.err)) {
            Thread hook = new Thread(() -> {
                try {
                    member.stopAll(8);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stopped.countDown();
            }, "member-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            InetSocketAddress a = api.address();
            System.out.println("{\"type\":\"ready\",\"member\":" + index + ",\"members\":" + config.members().size()
                    + ",\"http\":\"" + a.getHostString() + ":" + a.getPort() + "\"}");
            System.out.flush();
            stopped.await();
        }
        return 0;
    }

    private List<InetSocketAddress> memberList() throws IOException {
        List<String> entries;
        if (membersFile != null) {
            entries = Files.readAllLines(membersFile).stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } else if (members != null) {
            entries = members;
        } else {
            throw new IllegalArgumentException("give the member list with --members or --members-file");
        }
        List<InetSocketAddress> list = new ArrayList<>();
        for (String e : entries) {
            list.add(ClusterConfig.address(e.strip()));
        }
        if (list.size() != list.stream().distinct().count()) {
            throw new IllegalArgumentException("the member list names an address twice: " + Arrays.toString(entries.toArray()));
        }
        return list;
    }
}
