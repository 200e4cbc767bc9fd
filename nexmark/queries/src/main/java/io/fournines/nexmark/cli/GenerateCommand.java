package io.fournines.nexmark.cli;

import io.fournines.nexmark.codec.EventJsonWriter;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code generate}: a bounded run of the generator, written as JSON Lines. */
@Command(name = "generate",
        description = {
            "Writes events 0 to N-1 of the NEXMark sequence as JSON Lines.",
            "The rate only spaces the events' dateTime (event i at base time + i/rate s); the file is written as fast as possible."})
final class GenerateCommand implements Callable<Integer> {
    private static final long PROGRESS_INTERVAL_NANOS = 1_000_000_000L;
    /** Events between clock reads for progress; a power of two so the check is a mask. */
    private static final long PROGRESS_CHECK_MASK = (1 << 16) - 1;

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Option(names = "--events", required = true, paramLabel = "N", description = "number of events, at least 1")
    long events;

    @Option(names = "--seed", required = true, paramLabel = "S", description = "seed; the same seed gives the same events")
    long seed;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "0",
            description = "distinct person ids and auction ids, each in [1000, 1000+K); 0 (default) means Beam's growing id space")
    long keys;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "" + GeneratorConfig.DEFAULT_RATE,
            description = "events per second for the dateTime spacing (default: ${DEFAULT-VALUE})")
    long rate;

    @Option(names = "--base-time", paramLabel = "MILLIS", defaultValue = "" + GeneratorConfig.BEAM_BASE_TIME,
            description = "dateTime of event 0, epoch millis (default: Beam's 2015-07-15, ${DEFAULT-VALUE})")
    long baseTime;

    @Option(names = "--pad-extra", description = "fill the extra field so events average Beam's sizes (200/500/100 bytes)")
    boolean padExtra;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "output file, or - for standard output")
    String out;

    @Override
    public Integer call() throws IOException {
        if (events <= 0) {
            throw new ParameterException(spec.commandLine(), "--events must be at least 1, got " + events);
        }
        GeneratorConfig config;
        try {
            config = GeneratorConfig.defaults(seed).withRate(rate).withKeys(keys).withBaseTime(baseTime)
                    .withExtraPadding(padExtra);
        } catch (IllegalArgumentException e) {
            // The config names the offending field (rate, keys), which is also the option's name.
            throw new ParameterException(spec.commandLine(), "--" + e.getMessage());
        }
        NexmarkGenerator generator = new NexmarkGenerator(config);
        PrintWriter progress = spec.commandLine().getErr();
        long startNanos = System.nanoTime();
        long lastReport = startNanos;
        try (EventJsonWriter writer = new EventJsonWriter(openOutput())) {
            for (long i = 0; i < events; i++) {
                writer.write(generator.event(i));
                if ((i & PROGRESS_CHECK_MASK) == PROGRESS_CHECK_MASK) {
                    long now = System.nanoTime();
                    if (now - lastReport >= PROGRESS_INTERVAL_NANOS) {
                        lastReport = now;
                        report(progress, i + 1, now - startNanos);
                    }
                }
            }
        }
        report(progress, events, System.nanoTime() - startNanos);
        return 0;
    }

    private void report(PrintWriter progress, long done, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        progress.printf("generated %,d of %,d events (%.0f%%) in %.1f s, %,.0f events/s%n",
                done, events, 100.0 * done / events, seconds, done / Math.max(seconds, 1e-9));
        progress.flush();
    }

    private Writer openOutput() throws IOException {
        int buffer = 1 << 20;
        if (out.equals("-")) {
            return new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), buffer);
        }
        Path path = Path.of(out);
        return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(path), StandardCharsets.UTF_8), buffer);
    }
}
