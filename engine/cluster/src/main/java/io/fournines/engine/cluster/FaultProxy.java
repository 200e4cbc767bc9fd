package io.fournines.engine.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of one member's listening port, to inject network faults without root: the
 * member list names the proxy, the member listens behind it ({@link ClusterConfig#listeningOn}), and
 * every connection another member dials to it goes through. Each connection is known by its dialer's
 * member index, read from the dialer's first frame (the handshake's {@link Frames#HELLO}); the proxy
 * can then cut a dialer's connections ({@link #reset}) or drop everything both ways on them, new ones
 * included, while keeping them open ({@link #blackhole}): a partition, in which only the silence
 * tells.
 */
public final class FaultProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final Set<Integer> blackholed = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private FaultProxy(ServerSocket server, InetSocketAddress target) {
        this.server = server;
        this.target = target;
    }

    /** Listens on {@code listen} (port 0: any free one) and forwards to {@code target}. */
    public static FaultProxy start(InetSocketAddress listen, InetSocketAddress target) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(listen);
        FaultProxy proxy = new FaultProxy(server, target);
        daemon("fault-proxy-accept-" + server.getLocalPort(), proxy::accept).start();
        return proxy;
    }

    /** Where the proxy listens: the member's address in the list. */
    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    /** Drops (or, {@code false}, passes again) everything sent either way on {@code dialer}'s connections. */
    public void blackhole(int dialer, boolean on) {
        if (on) {
            blackholed.add(dialer);
        } else {
            blackholed.remove(dialer);
        }
    }

    /** Closes {@code dialer}'s connections at once, with a reset on both sides. */
    public void reset(int dialer) {
        for (Link link : links) {
            if (link.dialer == dialer) {
                link.close(true);
            }
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;  // closed
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
            } catch (IOException e) {
                close(client);
                close(upstream);
                continue;
            }
            Link link = new Link(client, upstream);
            links.add(link);
            daemon("fault-proxy-from-dialer", link::fromDialer).start();
            daemon("fault-proxy-to-dialer", link::toDialer).start();
        }
    }

    @Override
    public void close() {
        closed = true;
        close(server);
        for (Link link : links) {
            link.close(false);
        }
    }

    /** One proxied connection: the dialer's socket and the one to the member. */
    private final class Link {
        private final Socket dialerSide;
        private final Socket memberSide;
        /** The dialer's member index, once its handshake said; -1 until then. */
        private volatile int dialer = -1;

        Link(Socket dialerSide, Socket memberSide) {
            this.dialerSide = dialerSide;
            this.memberSide = memberSide;
        }

        void fromDialer() {
            try (InputStream in = dialerSide.getInputStream(); OutputStream out = memberSide.getOutputStream()) {
                // The first frame: a 4-byte length, the type, and for a HELLO the dialer's index.
                byte[] head = in.readNBytes(4 + 1 + 4);
                if (head.length == 9 && head[4] == Frames.HELLO) {
                    dialer = ByteBuffer.wrap(head, 5, 4).getInt();
                }
                forward(head, head.length, out);
                pump(in, out);
            } catch (IOException e) {
                // The connection ended: the other direction is closed with it.
            } finally {
                close(false);
            }
        }

        void toDialer() {
            try (InputStream in = memberSide.getInputStream(); OutputStream out = dialerSide.getOutputStream()) {
                pump(in, out);
            } catch (IOException e) {
                // As above.
            } finally {
                close(false);
            }
        }

        private void pump(InputStream in, OutputStream out) throws IOException {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                forward(buffer, n, out);
            }
        }

        private void forward(byte[] bytes, int n, OutputStream out) throws IOException {
            if (!blackholed.contains(dialer)) {
                out.write(bytes, 0, n);
                out.flush();
            }
        }

        void close(boolean reset) {
            links.remove(this);
            if (reset) {
                try {
                    dialerSide.setSoLinger(true, 0);
                    memberSide.setSoLinger(true, 0);
                } catch (SocketException e) {
                    // Already closed.
                }
            }
            FaultProxy.close(dialerSide);
            FaultProxy.close(memberSide);
        }
    }

    private static void close(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // Closing: nothing left to do with it.
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }
}
