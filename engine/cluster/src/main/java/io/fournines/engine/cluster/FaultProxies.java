package io.fournines.engine.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FaultProxy} in front of every member of a cluster, the member list naming the proxies (each
 * member listens behind its own, {@link ClusterConfig#listeningOn}): what it takes to cut one member off
 * from all the others, both ways, without root.
 */
public final class FaultProxies implements AutoCloseable {

    private final List<FaultProxy> proxies;

    private FaultProxies(List<FaultProxy> proxies) {
        this.proxies = proxies;
    }

    /** Proxy i listens on {@code listen.get(i)} (port 0: any free one) and forwards to {@code members.get(i)}. */
    public static FaultProxies start(List<InetSocketAddress> listen, List<InetSocketAddress> members) throws IOException {
        if (listen.size() != members.size()) {
            throw new IllegalArgumentException(listen.size() + " proxy addresses for " + members.size() + " members");
        }
        List<FaultProxy> proxies = new ArrayList<>();
        try {
            for (int i = 0; i < members.size(); i++) {
                proxies.add(FaultProxy.start(listen.get(i), members.get(i)));
            }
        } catch (IOException | RuntimeException e) {
            proxies.forEach(FaultProxy::close);
            throw e;
        }
        return new FaultProxies(proxies);
    }

    /** The member list: where each proxy listens. */
    public List<InetSocketAddress> addresses() {
        return proxies.stream().map(FaultProxy::address).toList();
    }

    /** The proxy in front of {@code member}. */
    public FaultProxy proxy(int member) {
        return proxies.get(member);
    }

    /**
     * Cuts {@code member} off from every other member (or, {@code false}, heals it): everything it sends
     * or is sent on a member connection is dropped, on the connections it dials and those dialed to it,
     * new ones included, while they stay open: a partition in which only the silence tells.
     */
    public void isolate(int member, boolean on) {
        if (member < 0 || member >= proxies.size()) {
            throw new IllegalArgumentException("member must be 0 … " + (proxies.size() - 1) + "; is " + member);
        }
        for (int p = 0; p < proxies.size(); p++) {
            if (p != member) {
                proxies.get(p).blackhole(member, on);
                proxies.get(member).blackhole(p, on);
            }
        }
    }

    @Override
    public void close() {
        proxies.forEach(FaultProxy::close);
    }
}
