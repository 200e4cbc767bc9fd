package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.nexmark.driver.latency.EpochClock;
import io.fournines.nexmark.driver.latency.LatencyLog;
import io.fournines.nexmark.driver.latency.WindowLatencyRecorder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The active-active result consumer: both copies' members send their results here (one TCP
 * connection per member, {@link ResultForwarder}'s lines); it keeps the first copy of each
 * (window, key) and measures the latency of that deduplicated output exactly as a member measures
 * its own: a window's first kept result minus the window's end into the "first" log, and, once
 * either copy has completed the window on all its members, its last kept result into the
 * "completion" log; a per-event result's arrival minus its event's scheduled time. A copy whose
 * member dies only closes connections: the other copy's results keep flowing, no pause.
 *
 * <p>Kept results are remembered for {@link #RETENTION_SECONDS} behind the newest window (to
 * drop the slower copy's duplicates); a result older than that is counted and dropped.
 */
final class ResultConsumer implements AutoCloseable {

    static final long RETENTION_SECONDS = 60;

    private final ServerSocket server;
    private final int copies;
    private final int membersPerCopy;
    private final long retention;
    private final PrintStream err;
    private final ResultRecord record;
    private final CountDownLatch firstHello = new CountDownLatch(1);
    private volatile long startEpochNanos;
    /** Opens once the logs have started ({@link #measure}); results wait for it. */
    private final CountDownLatch measuring = new CountDownLatch(1);
    private volatile EpochClock clock;
    /** Windowed queries (window ends in ms); null for per-event queries, whose "windows" are scheduled times in ns. */
    private volatile WindowLatencyRecorder windows;
    private volatile LatencyLog perEvent;

    // Guarded by this.
    private final TreeMap<Long, Map<String, String>> kept = new TreeMap<>();
    private long forgottenUpTo = Long.MIN_VALUE;
    private final long[][] memberCompletion;
    private final long[] received;
    private final long[][] completionLines;
    private final int[] connections;
    private final int[] disconnections;
    private long keptCount;
    private long duplicates;
    private long mismatches;
    private long tooOld;
    /** The measurement has ended: what still arrives is neither counted nor kept. */
    private boolean ended;

    /**
     * Listens at once; results are measured from {@link #measure} on.
     *
     * @param windowed whether the query's results are windows (else per-event results)
     * @param record   where every received and kept result is written (a test aid), or null
     */
    ResultConsumer(InetSocketAddress listen, int copies, int membersPerCopy, boolean windowed, ResultRecord record, PrintStream err)
            throws IOException {
        this.server = new ServerSocket();
        server.bind(listen);
        this.copies = copies;
        this.membersPerCopy = membersPerCopy;
        this.retention = windowed ? TimeUnit.SECONDS.toMillis(RETENTION_SECONDS) : TimeUnit.SECONDS.toNanos(RETENTION_SECONDS);
        this.record = record;
        this.err = err;
        memberCompletion = new long[copies][membersPerCopy];
        for (long[] c : memberCompletion) {
            Arrays.fill(c, Long.MIN_VALUE);
        }
        received = new long[copies];
        completionLines = new long[copies][membersPerCopy];
        connections = new int[copies];
        disconnections = new int[copies];
        Thread acceptor = new Thread(this::accept, "consumer-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** Waits for the first member to connect; returns the copies' shared start instant (epoch ns), or -1 if woken first. */
    long awaitStart(CountDownLatch wake) throws InterruptedException {
        while (!firstHello.await(100, TimeUnit.MILLISECONDS)) {
            if (wake.getCount() == 0) {
                return -1;
            }
        }
        return startEpochNanos;
    }

    /**
     * From now on kept results are measured: with {@code windows} for a windowed query, else into
     * {@code perEvent}.
     */
    void measure(EpochClock clock, WindowLatencyRecorder windows, LatencyLog perEvent) {
        this.clock = clock;
        this.windows = windows;
        this.perEvent = perEvent;
        measuring.countDown();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread reader = new Thread(() -> read(socket), "consumer-read-" + socket.getPort());
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                if (!server.isClosed()) {
                    err.println("consumer: accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void read(Socket socket) {
        int copy = -1;
        int member = -1;
        try (socket; BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", -1);
                switch (f[0]) {
                    case "H" -> {
                        copy = Integer.parseInt(f[1]);
                        member = Integer.parseInt(f[2]);
                        if (copy < 0 || copy >= copies || member < 0 || member >= membersPerCopy) {
                            throw new IOException("copy " + copy + " member " + member + " is not among " + copies + " copies of "
                                    + membersPerCopy + " members");
                        }
                        startEpochNanos = Long.parseLong(f[4]);
                        connected(copy);
                        firstHello.countDown();
                    }
                    case "R", "E" -> {
                        measuring.await();
                        result(copy, Long.parseLong(f[1]), f[2], f[0].equals("R") ? f[3] : "");
                    }
                    case "W" -> {
                        measuring.await();
                        completed(copy, member, Long.parseLong(f[1]));
                    }
                    default -> throw new IOException("unknown line: " + line);
                }
            }
        } catch (IOException | RuntimeException e) {
            err.println("consumer: copy " + copy + " member " + member + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            disconnected(copy, member);
        }
    }

    private synchronized void connected(int copy) {
        connections[copy]++;
    }

    private synchronized void disconnected(int copy, int member) {
        if (copy >= 0) {
            disconnections[copy]++;
            err.println("consumer: copy " + copy + " member " + member + " disconnected");
        }
    }

    private synchronized void result(int copy, long window, String key, String value) {
        if (ended) {
            return;
        }
        received[copy]++;
        if (record != null) {
            record.received(copy, window, key, value);
        }
        if (window <= forgottenUpTo) {
            tooOld++;
            return;
        }
        Map<String, String> keys = kept.computeIfAbsent(window, w -> new HashMap<>());
        String first = keys.putIfAbsent(key, value);
        if (first != null) {
            duplicates++;
            if (!first.equals(value)) {
                mismatches++;
            }
            return;
        }
        keptCount++;
        if (windows != null) {
            windows.resultEmitted(window);
        } else {
            perEvent.recordMicros(clock.nowMicros() - window / 1_000);
        }
        if (record != null) {
            record.kept(copy, window, key, value);
        }
        forget(window - retention);
    }

    private void forget(long upTo) {
        if (upTo > forgottenUpTo && !kept.isEmpty() && kept.firstKey() <= upTo) {
            kept.headMap(upTo, true).clear();
            forgottenUpTo = upTo;
        }
    }

    /** A member's windows up to {@code end} are complete; the output's are once any copy's are on all its members. */
    private synchronized void completed(int copy, int member, long end) {
        if (ended) {
            return;
        }
        completionLines[copy][member]++;
        memberCompletion[copy][member] = Math.max(memberCompletion[copy][member], end);
        if (windows != null) {
            windows.windowsCompleteUpTo(Arrays.stream(memberCompletion[copy]).min().orElseThrow());
        }
    }

    /** The end of the measurement: the counts and records are final from here. */
    synchronized void end() {
        ended = true;
    }

    synchronized long receivedCount() {
        return Arrays.stream(received).sum();
    }

    synchronized long keptCount() {
        return keptCount;
    }

    synchronized ObjectNode describe(ObjectMapper json) {
        ObjectNode m = json.createObjectNode();
        m.put("copies", copies);
        m.put("members_per_copy", membersPerCopy);
        m.put("results_kept", keptCount);
        m.put("duplicates_dropped", duplicates);
        m.put("mismatched_duplicates", mismatches);
        m.put("results_too_old_to_compare", tooOld);
        m.put("retention_s", RETENTION_SECONDS);
        if (windows != null) {
            m.put("window_results_after_completion", windows.lateResults());
        }
        ArrayNode perCopy = m.putArray("by_copy");
        for (int c = 0; c < copies; c++) {
            ObjectNode o = perCopy.addObject();
            o.put("copy", c);
            o.put("results_received", received[c]);
            o.put("connections", connections[c]);
            o.put("disconnections", disconnections[c]);
            ArrayNode lines = o.putArray("completion_lines_by_member");
            Arrays.stream(completionLines[c]).forEach(lines::add);
            long complete = Arrays.stream(memberCompletion[c]).min().orElseThrow();
            if (complete != Long.MIN_VALUE) {
                o.put("complete_up_to", complete);
            }
        }
        return m;
    }

    @Override
    public void close() throws IOException {
        server.close();
        if (record != null) {
            record.close();
        }
    }

    /** Every result received and kept, as tab-separated lines: a test aid (--record-results). */
    static final class ResultRecord implements AutoCloseable {
        private final PrintWriter received;
        private final PrintWriter kept;

        ResultRecord(Path dir) throws IOException {
            received = new PrintWriter(Files.newBufferedWriter(dir.resolve("results-received.tsv"), StandardCharsets.UTF_8));
            kept = new PrintWriter(Files.newBufferedWriter(dir.resolve("results-kept.tsv"), StandardCharsets.UTF_8));
        }

        void received(int copy, long window, String key, String value) {
            received.println(copy + "\t" + window + "\t" + key + "\t" + value);
        }

        void kept(int copy, long window, String key, String value) {
            kept.println(copy + "\t" + window + "\t" + key + "\t" + value);
        }

        @Override
        public void close() {
            received.close();
            kept.close();
        }
    }
}
