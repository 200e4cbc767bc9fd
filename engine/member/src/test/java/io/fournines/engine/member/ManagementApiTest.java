package io.fournines.engine.member;

import io.fournines.engine.cluster.Cluster;
import io.fournines.engine.cluster.ClusterConfig;
import io.fournines.engine.cluster.ClusterSecret;
import io.fournines.engine.cluster.InvalidJobException;
import io.fournines.engine.cluster.JobControl;
import io.fournines.engine.cluster.JobPart;
import io.fournines.engine.cluster.JobRunner;
import io.fournines.engine.cluster.TermStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The management API of a one-member cluster whose job runner refuses every job: what reaches it, and what cannot block it. */
class ManagementApiTest {

    @TempDir
    Path out;
    private final ClusterSecret secret = ClusterSecret.of("management-api-test-secret", "test");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Cluster cluster;
    private ManagementApi api;

    /** Reads nothing but the size of what it was given, and refuses it: enough to see what the API passes on. */
    private static final class RefusingRunner implements JobRunner {
        @Override
        public JobSettings settings(String description) throws InvalidJobException {
            throw new InvalidJobException("refused a description of " + description.length() + " characters");
        }

        @Override
        public JobPart part(String description, PartContext context) throws InvalidJobException {
            return null;
        }
    }

    @BeforeEach
    void serve() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        JobControl jobs = new JobControl(out, new RefusingRunner(), quiet, 1, Duration.ZERO);
        cluster = Cluster.join(new ClusterConfig(List.of(new InetSocketAddress("127.0.0.1", port)), 0, secret, 200, 3_000, 10_000), TermStore.inMemory(), jobs, quiet);
        jobs.joined(cluster);
        api = new ManagementApi(new InetSocketAddress("127.0.0.1", 0), jobs, secret, quiet);
    }

    @AfterEach
    void stop() {
        api.close();
        cluster.close();
    }

    private HttpResponse<String> post(byte[] body) throws Exception {
        InetSocketAddress a = api.address();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.getPort() + "/jobs"))
                .header("Authorization", "Bearer " + secret.apiToken()).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aDescriptionTheRunnerRefusesIsA400NamingWhy() throws Exception {
        HttpResponse<String> r = post("{}".getBytes(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("bad job: refused a description of 2 characters\n");
    }

    @Test
    void anOversizedDescriptionIsA413AndNeverReachesTheRunner() throws Exception {
        HttpResponse<String> r = post(new byte[ManagementApi.MAX_JOB_BYTES + 1]);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).contains("larger than " + ManagementApi.MAX_JOB_BYTES + " bytes");
    }

    @Test
    void aDescriptionThatIsNotUtf8IsA400() throws Exception {
        HttpResponse<String> r = post(new byte[] {'{', (byte) 0xFF, '}'});
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("not UTF-8");
    }

    @Test
    void aClientThatSendsOneByteAndWaitsDoesNotBlockTheOthers() throws Exception {
        try (Socket slow = new Socket("127.0.0.1", api.address().getPort())) {
            slow.getOutputStream().write('P');
            slow.getOutputStream().flush();
            Thread.sleep(200);
            long start = System.nanoTime();
            assertThat(post("{}".getBytes(StandardCharsets.UTF_8)).statusCode()).isEqualTo(400);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000);
        }
    }
}
