package io.fournines.nexmark.fournines;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A member's {@code run} command in the test's own JVM, and what its histogram logs hold. */
final class InProcessMember {

    private InProcessMember() {
    }

    /** Runs the member on {@code scenarioJson} into {@code dir}; returns its progress lines once it exited with {@code expectedExit}. */
    static List<String> run(Path dir, String scenarioJson, int expectedExit) throws IOException {
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, scenarioJson);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int exit;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            exit = FourninesMember.commandLine().execute("run", "--scenario", file.toString(), "--out", dir.toString());
        } finally {
            System.setOut(original);
        }
        assertThat(exit).isEqualTo(expectedExit);
        return stdout.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** The values recorded in an HdrHistogram log, over all its intervals. */
    static long valuesIn(Path hlog) throws IOException {
        long values = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                values += ((Histogram) h).getTotalCount();
            }
        }
        return values;
    }
}
