package io.fournines.engine.member;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.InvalidJobException;
import io.fournines.engine.cluster.JobControl;
import io.fournines.engine.execution.CommittedSnapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The member's management API (JDK HTTP server, JSON by Jackson). Every call needs
 * {@code Authorization: Bearer TOKEN}, TOKEN being the hex HMAC-SHA256 of
 * "fournines-management-api" under the cluster secret (so the secret itself never travels); a call
 * without it is refused and logged.
 *
 * <pre>
 * POST   /jobs               body: a job description for the member's job runner (UTF-8, at most 1 MiB, else 413)
 *                            -> 202 {"job": ID} once the runner has checked it whole; 400 naming what is wrong
 * GET    /jobs/ID            this member's state of the job; on the coordinator, every member's
 * GET    /jobs/ID/snapshots  the snapshots this member committed, newest last (at most 1 024): id, start
 *                            (epoch ms), ms to saved here and to committed, bytes
 * GET    /metrics            Prometheus text
 * </pre>
 */
final class ManagementApi implements AutoCloseable {

    private final HttpServer server;
    /** Threads serving calls: a client that is slow to send its request holds one of them, not the API. */
    private static final int THREADS = 4;
    /** A job description larger than this is refused (413) before it is read whole. */
    static final int MAX_JOB_BYTES = 1 << 20;
    /** Seconds a client may take to send its request before the server closes the connection. */
    private static final String MAX_REQUEST_SECONDS = "10";

    static {
        // Read once, when the JDK's HTTP server first loads: this member's API is its only server.
        System.setProperty("sun.net.httpserver.maxReqTime", System.getProperty("sun.net.httpserver.maxReqTime", MAX_REQUEST_SECONDS));
    }

    private final JobControl member;
    private final ClusterSecret secret;
    private final PrintStream log;
    private final ObjectMapper json = new ObjectMapper();

    ManagementApi(InetSocketAddress address, JobControl member, ClusterSecret secret, PrintStream log) throws IOException {
        this.member = member;
        this.secret = secret;
        this.log = log;
        this.server = HttpServer.create(address, 16);
        server.createContext("/", this::handle);
        AtomicInteger threads = new AtomicInteger();
        server.setExecutor(Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "management-api-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !auth.startsWith("Bearer ") || !secret.acceptsToken(auth.substring("Bearer ".length()))) {
                log.println("member " + member.cluster().self() + ": refused management call " + ex.getRequestMethod() + " " + ex.getRequestURI()
                        + " from " + ex.getRemoteAddress() + ": " + (auth == null ? "no bearer token" : "wrong bearer token"));
                send(ex, 401, "text/plain", "missing or wrong bearer token (derived from the cluster secret)\n");
                return;
            }
            route(ex);
        } catch (RuntimeException e) {
            send(ex, 500, "text/plain", e + "\n");
        }
    }

    private void route(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod();
        String[] path = ex.getRequestURI().getPath().replaceAll("^/+|/+$", "").split("/");
        if (path.length == 1 && path[0].equals("metrics") && method.equals("GET")) {
            send(ex, 200, "text/plain; version=0.0.4", PrometheusText.of(member));
        } else if (path.length == 1 && path[0].equals("jobs") && method.equals("POST")) {
            byte[] bytes = ex.getRequestBody().readNBytes(MAX_JOB_BYTES + 1);
            if (bytes.length > MAX_JOB_BYTES) {
                send(ex, 413, "text/plain", "bad job: the description is larger than " + MAX_JOB_BYTES + " bytes\n");
                return;
            }
            String body;
            try {
                body = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                send(ex, 400, "text/plain", "bad job: the description is not UTF-8\n");
                return;
            }
            try {
                long id = member.submit(body);
                send(ex, 202, "application/json", "{\"job\":" + id + "}\n");
            } catch (InvalidJobException e) {
                send(ex, 400, "text/plain", "bad job: " + e.getMessage() + "\n");
            } catch (JobControl.NoCoordinatorException e) {
                send(ex, 503, "text/plain", e.getMessage() + "\n");
            }
        } else if (path.length >= 2 && path[0].equals("jobs")) {
            long id;
            try {
                id = Long.parseLong(path[1]);
            } catch (NumberFormatException e) {
                send(ex, 404, "text/plain", "no job " + path[1] + "\n");
                return;
            }
            JobControl.JobState job = member.job(id);
            if (job == null) {
                send(ex, 404, "text/plain", "no job " + id + " on member " + member.cluster().self() + "\n");
            } else if (path.length == 2 && method.equals("GET")) {
                send(ex, 200, "application/json", status(job));
            } else if (path.length == 3 && path[2].equals("snapshots") && method.equals("GET")) {
                send(ex, 200, "application/json", snapshots(job));
            } else {
                send(ex, 404, "text/plain", "no such call: " + method + " " + ex.getRequestURI() + "\n");
            }
        } else {
            send(ex, 404, "text/plain", "no such call: " + method + " " + ex.getRequestURI() + "\n");
        }
    }

    private String status(JobControl.JobState job) throws IOException {
        Cluster cluster = member.cluster();
        ObjectNode n = json.createObjectNode();
        n.put("job", job.id);
        n.put("member", cluster.self());
        n.put("state", job.state);
        n.put("cause", job.cause);
        if (cluster.coordinator() >= 0) {
            n.put("coordinator", cluster.coordinator());
        } else {
            n.putNull("coordinator");
        }
        ObjectNode members = n.putObject("members");
        for (Map.Entry<Integer, String> e : job.members.entrySet()) {
            members.put(Integer.toString(e.getKey()), e.getValue());
        }
        return json.writeValueAsString(n) + "\n";
    }

    private String snapshots(JobControl.JobState job) throws IOException {
        ObjectNode n = json.createObjectNode();
        n.put("job", job.id);
        n.put("member", member.cluster().self());
        ArrayNode list = n.putArray("snapshots");
        // Instants are this JVM's nanoTime: told as epoch ms by their distance from now.
        long nowNanos = System.nanoTime();
        long nowMillis = System.currentTimeMillis();
        for (CommittedSnapshot s : job.snapshotHistory()) {
            ObjectNode o = list.addObject();
            o.put("id", s.id());
            o.put("started_at_ms", nowMillis - (nowNanos - s.startedNanos()) / 1_000_000);
            o.put("saved_ms", (s.savedNanos() - s.startedNanos()) / 1e6);
            o.put("committed_ms", (s.committedNanos() - s.startedNanos()) / 1e6);
            o.put("bytes", s.bytes());
        }
        return json.writeValueAsString(n) + "\n";
    }

    private static void send(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type.toLowerCase(Locale.ROOT).startsWith("text/plain") ? type + "; charset=utf-8" : type);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
