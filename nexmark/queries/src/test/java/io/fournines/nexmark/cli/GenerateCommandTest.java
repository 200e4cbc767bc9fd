package io.fournines.nexmark.cli;

import io.fournines.nexmark.codec.EventJsonReader;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class GenerateCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = NexmarkCli.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void writesTheGeneratorsEventsAsJsonLines() throws IOException {
        Path out = dir.resolve("events.jsonl");
        int exit = run("generate", "--events", "3000", "--seed", "11", "--keys", "500", "--rate", "1000",
                "--out", out.toString());

        assertThat(exit).isZero();
        NexmarkGenerator generator = new NexmarkGenerator(GeneratorConfig.defaults(11).withKeys(500).withRate(1000));
        try (EventJsonReader reader = EventJsonReader.strict(Files.newInputStream(out))) {
            for (long i = 0; i < 3000; i++) {
                Event event = reader.read();
                assertThat(event).isEqualTo(generator.event(i));
            }
            assertThat(reader.read()).isNull();
        }
        assertThat(err.toString()).contains("generated 3,000 of 3,000 events (100%)");
    }

    @Test
    void missingRequiredOptionIsAnErrorThatNamesIt() {
        assertThat(run("generate", "--events", "10", "--out", dir.resolve("x").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--seed=S'");
    }

    @Test
    void nonNumericValueIsAnErrorThatNamesTheOption() {
        assertThat(run("generate", "--events", "ten", "--seed", "1", "--out", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--events': 'ten' is not a long");
    }

    @Test
    void outOfRangeValuesAreErrorsThatNameTheOptionAndWriteNothing() {
        String out = dir.resolve("x").toString();
        assertThat(run("generate", "--events", "0", "--seed", "1", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--events must be at least 1, got 0");
        assertThat(run("generate", "--events", "5", "--seed", "1", "--rate", "-3", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--rate must be between 1 and 1000000000 events/s, got -3");
        assertThat(run("generate", "--events", "5", "--seed", "1", "--keys", "-1", "--out", out)).isEqualTo(2);
        assertThat(err.toString()).contains("--keys must be 0 (unbounded) or positive, got -1");
        assertThat(Files.exists(dir.resolve("x"))).isFalse();
    }
}
