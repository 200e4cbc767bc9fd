package io.fournines.nexmark.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fournines.nexmark.codec.EventJsonReader;
import io.fournines.nexmark.codec.EventJsonWriter;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.RecordOrder;
import io.fournines.nexmark.query.reference.Q5Reference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class QueryCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();
    private final List<Event> events = new ArrayList<>();
    private Path input;

    @BeforeEach
    void writeShuffledEvents() throws IOException {
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(5).withRate(1_000).withKeys(300));
        for (long i = 0; i < 4_000; i++) {
            events.add(generator.event(i));
        }
        Collections.shuffle(events, new Random(3));
        input = dir.resolve("events.jsonl");
        try (EventJsonWriter writer = new EventJsonWriter(Files.newBufferedWriter(input, StandardCharsets.UTF_8))) {
            events.forEach(writer::write);
        }
    }

    private int run(String... args) {
        CommandLine cli = NexmarkCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    /** Invalid UTF-8 in the input names its line, from a file or standard input alike, and --skip-bad skips and counts it. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void invalidUtf8IsAMalformedLineFromAFileOrStandardInput(boolean fromStandardInput) throws IOException {
        byte[] lines = Files.readAllBytes(input);
        int secondLine = indexOf(lines, (byte) '\n') + 1;
        lines[secondLine + 2] = (byte) 0xFF;
        Path bad = dir.resolve("bad.jsonl");
        Files.write(bad, lines);
        String in = fromStandardInput ? "-" : bad.toString();
        InputStream original = System.in;
        try {
            System.setIn(Files.newInputStream(bad));
            assertThat(run("query", "q1", "--input", in, "--out", dir.resolve("strict.jsonl").toString())).isEqualTo(1);
            assertThat(err.toString()).contains(in + ": line 2: not UTF-8: byte 0xFF at byte 3 of the line");
            System.setIn(Files.newInputStream(bad));
            assertThat(run("query", "q1", "--input", in, "--out", dir.resolve("skipped.jsonl").toString(), "--skip-bad")).isZero();
            assertThat(err.toString()).contains("skipped line 2: not UTF-8").contains(String.format("%,d events in", events.size() - 1))
                    .contains("1 malformed lines skipped");
        } finally {
            System.setIn(original);
        }
    }

    @Test
    void anEmptyInputIsAWarning() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty.jsonl"));
        assertThat(run("query", "q5", "--input", empty.toString(), "--out", dir.resolve("q5.jsonl").toString())).isZero();
        assertThat(err.toString()).contains(empty + ": warning: no events in the input");
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Many sellers each close two auctions in the same millisecond, with different winning prices,
     * so each seller's two averages differ and their order shows: on several worker threads every
     * run gives the same output, in auction-id order within the millisecond.
     */
    @Test
    void q6OrdersAuctionsClosingInTheSameMillisecondByAuctionIdEveryRun() throws IOException {
        Path ties = dir.resolve("ties.jsonl");
        try (EventJsonWriter writer = new EventJsonWriter(Files.newBufferedWriter(ties, StandardCharsets.UTF_8))) {
            for (long seller = 1; seller <= 300; seller++) {
                for (long k = 0; k < 2; k++) {
                    long auction = 1_000 + 2 * seller + k;
                    writer.write(new Auction(auction, "item", "desc", 1, 0, 0, 500, seller, 1, ""));
                    writer.write(new Bid(auction, 7, 10 + 90 * k, 100, ""));
                }
            }
        }
        List<List<String>> outputs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            Path out = dir.resolve("q6-" + r + ".jsonl");
            assertThat(run("query", "q6", "--input", ties.toString(), "--out", out.toString(), "--threads", "4", "--slide-ms", "1000")).isZero();
            outputs.add(Files.readAllLines(out));
        }
        assertThat(outputs.get(0)).hasSize(600).contains("{\"seller\":1,\"auction\":1002,\"average\":10,\"dateTime\":500}",
                "{\"seller\":1,\"auction\":1003,\"average\":55,\"dateTime\":500}");
        assertThat(outputs.get(0).indexOf("{\"seller\":1,\"auction\":1002,\"average\":10,\"dateTime\":500}"))
                .isLessThan(outputs.get(0).indexOf("{\"seller\":1,\"auction\":1003,\"average\":55,\"dateTime\":500}"));
        assertThat(outputs).allMatch(o -> o.equals(outputs.get(0)));
    }

    @Test
    void q0WritesTheInputBackInInputOrder() throws IOException {
        Path out = dir.resolve("q0.jsonl");
        assertThat(run("query", "q0", "--input", input.toString(), "--out", out.toString(), "--threads", "3")).isZero();
        List<Event> read = new ArrayList<>();
        try (EventJsonReader reader = EventJsonReader.strict(Files.newInputStream(out))) {
            for (Event e; (e = reader.read()) != null; ) {
                read.add(e);
            }
        }
        assertThat(read).isEqualTo(events);
        assertThat(err.toString()).contains("q0: 4,000 events in, 4,000 results out");
    }

    @Test
    void q5WritesTheReferenceResultsInWindowOrderInTheDocumentedFormat() throws IOException {
        Path out = dir.resolve("q5.jsonl");
        assertThat(run("query", "Q5", "--input", input.toString(), "--out", out.toString(), "--window-ms", "1000", "--slide-ms", "250")).isZero();
        ObjectMapper json = new ObjectMapper();
        List<HotItem> read = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            assertThat(line).startsWith("{\"start\":");
            read.add(json.readValue(line, HotItem.class));
        }
        List<HotItem> expected = new ArrayList<>(Q5Reference.run(events, 1000, 250));
        expected.sort(RecordOrder.INSTANCE);
        assertThat(read).isNotEmpty().isEqualTo(expected);
    }

    /** The engine and the reference implementations write the same file for the same input. */
    @ParameterizedTest
    @ValueSource(strings = {"q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"})
    void theReferenceWritesWhatTheEngineWrites(String query) throws IOException {
        Path engine = dir.resolve(query + "-engine.jsonl");
        Path reference = dir.resolve(query + "-reference.jsonl");
        String[] window = {"--window-ms", "1000", "--slide-ms", "250", "--auction-skip", "7"};
        assertThat(run(concat(new String[] {"query", query, "--input", input.toString(), "--out", engine.toString()}, window))).isZero();
        assertThat(run(concat(new String[] {"query", query, "--input", input.toString(), "--out", reference.toString(), "--reference"}, window)))
                .isZero();
        assertThat(Files.readAllLines(reference)).isNotEmpty().isEqualTo(Files.readAllLines(engine));
    }

    @Test
    void q13HasNoReferenceToRun() {
        assertThat(run("query", "q13", "--input", input.toString(), "--out", "x", "--reference")).isEqualTo(2);
        assertThat(err.toString()).contains("--reference: q13 has no reference implementation; it covers q0 to q8");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    @Test
    void aMalformedLineIsAnErrorNamingFileLineAndField() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(input));
        lines.set(6, lines.get(6).replaceFirst("\"dateTime\":\\d+", "\"dateTime\":\"soon\""));
        Files.write(input, lines);
        assertThat(run("query", "q1", "--input", input.toString(), "--out", dir.resolve("q1.jsonl").toString())).isEqualTo(1);
        assertThat(err.toString()).contains(input + ": line 7, field ").contains(".dateTime: expected an integer");
    }

    @Test
    void skipBadCountsAndReportsMalformedLines() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(input));
        lines.set(2, "not json");
        lines.set(9, "{\"bid\":{}}");
        Files.write(input, lines);
        Path out = dir.resolve("q0.jsonl");
        assertThat(run("query", "q0", "--input", input.toString(), "--out", out.toString(), "--skip-bad")).isZero();
        assertThat(Files.readAllLines(out)).hasSize(3_998);
        assertThat(err.toString()).contains("skipped line 3").contains("skipped line 10").contains("2 malformed lines skipped");
    }

    @Test
    void badQueryOrWindowIsAUsageError() {
        assertThat(run("query", "q9", "--input", input.toString(), "--out", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown query 'q9'; the queries are q0, q1");
        assertThat(run("query", "q5", "--input", input.toString(), "--out", "x", "--window-ms", "1000", "--slide-ms", "300")).isEqualTo(2);
        assertThat(err.toString()).contains("--window-ms must be a multiple of --slide-ms, got 1000 and 300");
        assertThat(run("query", "q1", "--input", dir.resolve("missing.jsonl").toString(), "--out", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("--input: no such file");
    }
}
