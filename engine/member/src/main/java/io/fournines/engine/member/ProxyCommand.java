package io.fournines.engine.member;

import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.FaultProxies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code proxy}: a fault-injecting TCP proxy in front of each member of a local cluster, so the runner can
 * partition the members without root ({@link FaultProxies}). The member list names the proxies' addresses,
 * and each member listens behind its own ({@code serve --listen}).
 */
@Command(name = "proxy",
        description = {
            "Listens on each route's LISTEN and forwards to its TARGET, one route per member in index order (the member list",
            "names the LISTEN addresses; each member serves with --listen TARGET). Prints {\"type\":\"ready\",...} on stdout once",
            "all listen, then reads commands on stdin, one a line: 'isolate I' cuts member I off from every other member",
            "(everything either way on their connections is dropped, the connections stay open), 'heal I' ends that.",
            "Ends at the end of stdin or on SIGTERM. Exit: 0 ended, 2 bad arguments or an address it could not listen on."})
public final class ProxyCommand implements Callable<Integer> {

    private static final Pattern COMMAND = Pattern.compile("(isolate|heal) (\\d+)");

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--routes", required = true, split = ",", paramLabel = "LISTEN=TARGET",
            description = "one route per member, in index order: the proxy's address in the member list = where the member listens")
    List<String> routes;

    @Override
    public Integer call() throws IOException {
        List<InetSocketAddress> listen = new ArrayList<>();
        List<InetSocketAddress> targets = new ArrayList<>();
        try {
            for (String route : routes) {
                String[] ends = route.split("=", -1);
                if (ends.length != 2) {
                    throw new IllegalArgumentException("--routes: each route must be LISTEN=TARGET; is \"" + route + "\"");
                }
                listen.add(ClusterConfig.address(ends[0].strip()));
                targets.add(ClusterConfig.address(ends[1].strip()));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("proxy: " + e.getMessage());
            return 2;
        }
        FaultProxies proxies;
        try {
            proxies = FaultProxies.start(listen, targets);
        } catch (IOException e) {
            System.err.println("proxy: cannot listen on every route's address " + listen + ": " + e.getMessage());
            return 2;
        }
        try (proxies) {
            System.out.println("{\"type\":\"ready\",\"routes\":" + routes.size() + "}");
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = commands.readLine()) != null; ) {
                obey(proxies, line.strip());
            }
        }
        return 0;
    }

    /** A command that cannot be carried out is said on stderr; the proxies go on as they were. */
    private void obey(FaultProxies proxies, String command) {
        Matcher m = COMMAND.matcher(command);
        if (!m.matches()) {
            System.err.println("proxy: unknown command \"" + command + "\"; the commands are 'isolate I' and 'heal I'");
            return;
        }
        boolean isolate = m.group(1).equals("isolate");
        try {
            proxies.isolate(Integer.parseInt(m.group(2)), isolate);
        } catch (IllegalArgumentException e) {
            System.err.println("proxy: " + command + ": " + e.getMessage());
            return;
        }
        System.err.println("proxy: member " + m.group(2) + (isolate ? " cut off from the others" : " joined to the others again"));
    }
}
