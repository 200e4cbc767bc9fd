package io.fournines.loadgen;

import io.fournines.loadgen.nexmark.NexmarkStream;
import io.fournines.loadgen.trades.TradeStream;
import io.fournines.loadgen.ysb.YsbStream;
import io.fournines.nexmark.codec.NexmarkRecords;
import io.fournines.nexmark.trades.TradeGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;

/** {@code run}: the open-loop load into a topic. */
@Command(name = "run",
        description = {"Sends --stream events to --topic at --rate events/s in total from --producers threads, open loop:",
            "event i is due at t0 + i/rate and carries that time. Partitions must be a multiple of --producers",
            "(of N x --producers with --share K/N).",
            "A JSON progress line each second on stdout; --summary FILE gets the totals.",
            "Exit: 0 all sent and acknowledged, 1 a send failed, 2 bad arguments, 3 or 128+N stopped early."})
final class RunCommand implements Callable<Integer> {

    /** On SIGTERM: how long to wait for the producers to flush before the JVM halts. */
    private static final long STOP_WAIT_SECONDS = 35;

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Mixin
    TopicOptions kafka;

    @Option(names = "--stream", required = true, description = "nexmark, trades or ysb (the Yahoo Streaming Benchmark's ad events)")
    String stream;

    @Option(names = "--rate", required = true, description = "events per second over all producers")
    double rate;

    @Option(names = "--producers", defaultValue = "1", description = "sender threads, each with its own KafkaProducer (default ${DEFAULT-VALUE})")
    int producers;

    @Option(names = "--keys", defaultValue = "10000", description = "nexmark: distinct person and auction ids, 0 for Beam's growing ids (default ${DEFAULT-VALUE})")
    long keys;

    @Option(names = "--padding", defaultValue = "0", description = "nexmark: payload bytes each record carries after its event, 0 to "
            + NexmarkRecords.MAX_PADDING_BYTES + ", skipped by the reader (default ${DEFAULT-VALUE})")
    int padding;

    @Option(names = "--tickers", defaultValue = "" + TradeGenerator.DEFAULT_TICKERS, description = "trades: distinct tickers (default ${DEFAULT-VALUE})")
    int tickers;

    @Option(names = "--events", defaultValue = "" + Long.MAX_VALUE, description = "stop after this many events (default: no limit)")
    long events;

    @Option(names = "--duration-s", defaultValue = "Infinity", description = "stop at t0 + this many seconds (default: no limit)")
    double durationSeconds;

    @Option(names = "--start-epoch-ms", defaultValue = "0", description = "t0 as ms since the epoch, so the events are those of a known schedule (default: now)")
    long startEpochMillis;

    @Option(names = "--share", defaultValue = "1/1", paramLabel = "K/N",
            description = "the K-th of N load generators feeding one topic from their own hosts: this one sends its share of the"
                    + " one schedule at --rate (the total); N > 1 needs --start-epoch-ms, their shared t0 (default ${DEFAULT-VALUE})")
    String share;

    @Option(names = "--end-of-stream", description = "after the last event, mark the end of every partition (a bounded load a reader can end at)")
    boolean endOfStream;

    @Option(names = "--acks", defaultValue = "1", description = "producer acks: 0, 1 or all (default ${DEFAULT-VALUE})")
    String acks;

    @Option(names = "--linger-ms", defaultValue = "5", description = "producer linger.ms (default ${DEFAULT-VALUE})")
    int lingerMs;

    @Option(names = "--batch-size", defaultValue = "262144", description = "producer batch.size in bytes (default ${DEFAULT-VALUE})")
    int batchSize;

    @Option(names = "--producer-config", paramLabel = "KEY=VALUE", description = "any other producer setting, repeatable")
    Map<String, String> producerConfig = Map.of();

    @Option(names = "--summary", paramLabel = "FILE", description = "where to write the run's totals as JSON")
    Path summary;

    boolean stopOnSignal;

    @Override
    public Integer call() throws Exception {
        if (!(rate > 0)) {
            throw new ParameterException(spec.commandLine(), "--rate must be > 0 events/s; is " + rate);
        }
        if (producers < 1) {
            throw new ParameterException(spec.commandLine(), "--producers must be at least 1; is " + producers);
        }
        if (!(acks.equals("0") || acks.equals("1") || acks.equals("all") || acks.equals("-1"))) {
            throw new ParameterException(spec.commandLine(), "--acks must be 0, 1 or all; is " + acks);
        }
        if (padding < 0 || padding > NexmarkRecords.MAX_PADDING_BYTES) {
            throw new ParameterException(spec.commandLine(), "--padding must be 0 to " + NexmarkRecords.MAX_PADDING_BYTES + " bytes; is " + padding);
        }
        if (padding > 0 && !stream.equals("nexmark")) {
            throw new ParameterException(spec.commandLine(), "--padding pads NEXMark records only; --stream is " + stream);
        }
        IntFunction<EventStream> streams = switch (stream) {
            case "nexmark" -> thread -> new NexmarkStream(rate, keys, padding);
            case "trades" -> thread -> new TradeStream(tickers);
            case "ysb" -> thread -> new YsbStream();
            default -> throw new ParameterException(spec.commandLine(), "--stream must be nexmark, trades or ysb; is " + stream);
        };
        if (startEpochMillis < 0) {
            throw new ParameterException(spec.commandLine(), "--start-epoch-ms must be >= 0; is " + startEpochMillis);
        }
        Share part;
        try {
            part = Share.parse(share);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (part.count() > 1 && startEpochMillis == 0) {
            throw new ParameterException(spec.commandLine(), "--share " + share + " needs --start-epoch-ms: load generators that share"
                    + " a schedule must share its t0");
        }
        LoadRun run = new LoadRun(new LoadRun.Settings(kafka.bootstrap, kafka.topic, stream, rate, producers, part, events, durationSeconds,
                Math.multiplyExact(startEpochMillis, 1_000_000L), endOfStream, acks, lingerMs, batchSize, producerConfig), streams);
        Thread hook = new Thread(() -> {
            run.requestStop();
            try {
                run.awaitFinished(STOP_WAIT_SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loadgen-shutdown");
        if (stopOnSignal) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return run.run(System.out, System.err, summary);
        } finally {
            if (stopOnSignal) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // The hook is running: it waits for the run to close its producers.
                }
            }
        }
    }
}
