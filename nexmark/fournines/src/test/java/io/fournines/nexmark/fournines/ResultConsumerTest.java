package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.nexmark.driver.latency.LatencyLogs;
import io.fournines.nexmark.driver.latency.WindowLatencyRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The consumer over real loopback connections, one per member, as the forwarders open them. */
class ResultConsumerTest {

    @TempDir
    Path dir;

    @Test
    void keepsTheFirstCopyOfEachWindowAndKeyAndGoesOnWhenACopyDies() throws Exception {
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try (LatencyLogs logs = LatencyLogs.start(0);
             ResultConsumer consumer = new ResultConsumer(new InetSocketAddress("127.0.0.1", 0), 2, 1, true,
                     new ResultConsumer.ResultRecord(dir), new PrintStream(errBytes, true, StandardCharsets.UTF_8))) {
            WindowLatencyRecorder windows = new WindowLatencyRecorder(logs.open(dir.resolve("latency.hlog")),
                    logs.open(dir.resolve("completion.hlog")), logs.clock());
            consumer.measure(logs.clock(), windows, null);
            try (Socket copy0 = new Socket("127.0.0.1", consumer.address().getPort());
                 Socket copy1 = new Socket("127.0.0.1", consumer.address().getPort())) {
                send(copy0, "H\t0\t0\t1\t5", "R\t1000\t7\t3", "R\t1000\t8\t1", "W\t1000");
                await(() -> consumer.receivedCount() == 2);
                send(copy1, "H\t1\t0\t1\t5", "R\t1000\t7\t3", "R\t1000\t8\t2", "R\t1010\t7\t4");
                await(() -> consumer.receivedCount() == 5);
                copy0.close();
                // The consumer notices on copy 0's reader thread: wait for it before ending.
                await(() -> errBytes.toString(StandardCharsets.UTF_8).contains("copy 0 member 0 disconnected"));
                send(copy1, "R\t1020\t9\t1", "W\t1020");
                await(() -> consumer.receivedCount() == 6);
            }
            consumer.end();
            JsonNode counts = new ObjectMapper().readTree(consumer.describe(new ObjectMapper()).toString());
            assertThat(counts.get("results_kept").asLong()).isEqualTo(4);
            assertThat(counts.get("duplicates_dropped").asLong()).isEqualTo(2);
            assertThat(counts.get("mismatched_duplicates").asLong()).isEqualTo(1);
            assertThat(counts.get("by_copy").get(1).get("complete_up_to").asLong()).isEqualTo(1020);
            assertThat(windows.lateResults()).isZero();
        }
        assertThat(Files.readAllLines(dir.resolve("results-kept.tsv")))
                .containsExactly("0\t1000\t7\t3", "0\t1000\t8\t1", "1\t1010\t7\t4", "1\t1020\t9\t1");
    }

    private static void send(Socket socket, String... lines) throws IOException {
        Writer out = new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8);
        out.write(String.join("\n", List.of(lines)) + "\n");
        out.flush();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 10 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
