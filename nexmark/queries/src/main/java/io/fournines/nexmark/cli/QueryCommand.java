package io.fournines.nexmark.cli;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.codec.EventJsonReader;
import io.fournines.nexmark.codec.MalformedEventException;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.queries.NexmarkQuery;
import io.fournines.nexmark.queries.PerEventQuery;
import io.fournines.nexmark.queries.Queries;
import io.fournines.nexmark.queries.ResultLines;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.RecordOrder;
import io.fournines.nexmark.query.SellerAverage;
import io.fournines.nexmark.query.reference.References;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code query}: one query over a bounded file of events, results as JSON Lines. */
@Command(name = "query",
        description = {
            "Runs NEXMark query Q on the reference engine (or, with --reference, the engine-free reference implementation) over the events in a JSON Lines file.",
            "Event time is each event's dateTime; the input may be in any order, and every window fires at its end.",
            "Per-event queries (q0, q1, q2, q13) write results in input order, q6 in close order, the others by field (windows first);",
            "q3 by field too: which of a pair's two events completes it depends on the order they reach the join."})
final class QueryCommand implements Callable<Integer> {
    /** How many bad lines --skip-bad prints before it only counts them. */
    private static final int BAD_LINES_SHOWN = 10;
    private static final Comparator<Object> WINDOW_ORDER = RecordOrder.INSTANCE;
    /**
     * Q6's averages form a sequence per seller in close order, auction id breaking ties in a
     * millisecond (SellerAverage); sorting by every field would not keep it. The average last: two
     * auctions of one recycled id closing in one millisecond differ only there.
     */
    private static final Comparator<Object> CLOSE_ORDER = Comparator.comparingLong((Object r) -> ((SellerAverage) r).dateTime())
            .thenComparingLong(r -> ((SellerAverage) r).seller()).thenComparingLong(r -> ((SellerAverage) r).auction())
            .thenComparingLong(r -> ((SellerAverage) r).average());

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Parameters(index = "0", paramLabel = "Q", description = "the query: q0, q1, q2, q3, q4, q5, q6, q7, q8 or q13")
    String query;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "events as JSON Lines, or - for standard input")
    String input;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "results as JSON Lines, or - for standard output")
    String out;

    @Option(names = "--window-ms", paramLabel = "W", defaultValue = "10000",
            description = "window size: q4 and q5 (sliding), q7 and q8 (tumbling) (default: ${DEFAULT-VALUE})")
    long windowMs;

    @Option(names = "--slide-ms", paramLabel = "S", defaultValue = "10",
            description = "slide of q4 and q5, a divisor of the window; q6's frame (default: ${DEFAULT-VALUE})")
    long slideMs;

    @Option(names = "--auction-skip", paramLabel = "N", defaultValue = "123",
            description = "q2 keeps bids on auctions whose id is a multiple of N (default: ${DEFAULT-VALUE})")
    long auctionSkip;

    @Option(names = "--side-input-rows", paramLabel = "N", defaultValue = "500",
            description = "rows of q13's side input; a bid joins row bidder %% N (default: ${DEFAULT-VALUE})")
    int sideInputRows;

    @Option(names = "--person-ttl-ms", paramLabel = "T",
            description = {"event time q3 keeps a person waiting for their auctions, and q6 a seller's history after their last close",
                    "(default: the input's span of event time, so nothing is forgotten and the results match --reference)"})
    Long personTtlMs;

    @Option(names = "--threads", paramLabel = "T", description = "engine worker threads (default: one per core)")
    Integer threads;

    @Option(names = "--skip-bad", description = "skip malformed input lines, report them and their count on stderr, instead of failing at the first")
    boolean skipBad;

    @Option(names = "--reference", description = {"compute the results with the reference implementations instead of the engine:",
            "plain loops over the events, an oracle to check an engine's output against (q0 to q8)"})
    boolean reference;

    @Override
    public Integer call() throws IOException {
        QueryParameters parameters = validatedParameters();
        PrintWriter err = spec.commandLine().getErr();
        List<Event> events = new ArrayList<>();
        long badLines;
        try (EventJsonReader reader = openReader(err)) {
            for (Event e; (e = reader.read()) != null; ) {
                events.add(e);
            }
            badLines = reader.badLines();
        } catch (MalformedEventException e) {
            err.println(input + ": " + e.getMessage());
            return 1;
        }
        if (events.isEmpty()) {
            err.println(input + ": warning: no events in the input" + (badLines == 0 ? "" : ", only malformed lines"));
        }
        if (personTtlMs == null) {
            parameters = parameters.withPersonTtl(eventTimeSpan(events));
        }
        List<?> results = reference ? runReference(parameters, events) : run(parameters, events);
        try (Writer writer = openOutput()) {
            write(results, writer);
        }
        err.printf("%s: %,d events in, %,d results out%s%n", query, events.size(), results.size(),
                badLines == 0 ? "" : String.format(", %,d malformed lines skipped", badLines));
        return 0;
    }

    private QueryParameters validatedParameters() {
        String name = query.toLowerCase(Locale.ROOT);
        if (!Queries.NAMES.contains(name)) {
            throw new ParameterException(spec.commandLine(), "unknown query '" + query + "'; the queries are " + String.join(", ", Queries.NAMES));
        }
        requirePositive("--window-ms", windowMs);
        requirePositive("--slide-ms", slideMs);
        requirePositive("--auction-skip", auctionSkip);
        requirePositive("--side-input-rows", sideInputRows);
        if (personTtlMs != null) {
            requirePositive("--person-ttl-ms", personTtlMs);
        }
        if (threads != null) {
            requirePositive("--threads", threads);
        }
        if (reference && !References.covers(name)) {
            throw new ParameterException(spec.commandLine(), "--reference: " + name + " has no reference implementation; it covers q0 to q8");
        }
        if ((name.equals("q4") || name.equals("q5")) && windowMs % slideMs != 0) {
            throw new ParameterException(spec.commandLine(),
                    "--window-ms must be a multiple of --slide-ms, got " + windowMs + " and " + slideMs);
        }
        return QueryParameters.defaults().withWindow(windowMs, slideMs).withAuctionSkip(auctionSkip).withSideInputRows(sideInputRows);
    }

    /** One more than the input's latest event time less its earliest: no event is that far from another. */
    private static long eventTimeSpan(List<Event> events) {
        LongSummaryStatistics times = events.stream().mapToLong(Event::dateTime).summaryStatistics();
        return events.isEmpty() ? 1 : times.getMax() - times.getMin() + 1;
    }

    private void requirePositive(String option, long value) {
        if (value < 1) {
            throw new ParameterException(spec.commandLine(), option + " must be at least 1, got " + value);
        }
    }

    private EventJsonReader openReader(PrintWriter err) throws IOException {
        InputStream in;
        if (input.equals("-")) {
            in = System.in;
        } else {
            try {
                in = Files.newInputStream(Path.of(input));
            } catch (NoSuchFileException e) {
                throw new ParameterException(spec.commandLine(), "--input: no such file: " + input);
            }
        }
        if (!skipBad) {
            return EventJsonReader.strict(in);
        }
        long[] shown = {0};
        return EventJsonReader.skippingBad(in, bad -> {
            if (shown[0]++ < BAD_LINES_SHOWN) {
                err.println(input + ": skipped " + bad.getMessage());
            }
        });
    }

    /** The query's results: per-event ones in input order (but Q3's pairs), the others in window order. */
    private List<?> run(QueryParameters parameters, List<Event> events) {
        ExecutionConfig config = ExecutionConfig.defaults();
        try (Engine engine = Engine.start(threads == null ? config : config.withCooperativeThreads(threads))) {
            Pipeline p = Pipeline.create();
            NexmarkQuery<?> q = Queries.create(query, p, parameters);
            if (q instanceof PerEventQuery<?> perEvent) {
                List<Numbered<Event>> numbered = new ArrayList<>(events.size());
                for (int i = 0; i < events.size(); i++) {
                    numbered.add(new Numbered<>(i, events.get(i)));
                }
                List<Numbered<?>> results = new ArrayList<>();
                attachNumbered(perEvent, p.readFrom(Sources.boundedStream(numbered)).withoutTimestamps()).writeTo(Sinks.list(results));
                engine.newJob(p).join();
                results.sort(perEvent.pairsEvents() ? Comparator.comparing(Numbered::item, WINDOW_ORDER) : Comparator.comparingLong(Numbered::index));
                return results.stream().map(Numbered::item).toList();
            }
            List<Object> results = new ArrayList<>();
            q.attach(p.readFrom(Sources.boundedStream(events)).withTimestamps(Event::dateTime, 0)).writeTo(Sinks.list(results));
            engine.newJob(p).join();
            results.sort(results.stream().anyMatch(r -> r instanceof SellerAverage) ? CLOSE_ORDER : WINDOW_ORDER);
            return results;
        }
    }

    /** The reference implementation's results, in the order the engine's are written. */
    private List<?> runReference(QueryParameters parameters, List<Event> events) {
        List<Object> results = new ArrayList<>(References.run(query, events, parameters));
        if (!(Queries.create(query, Pipeline.create(), parameters) instanceof PerEventQuery<?> perEvent) || perEvent.pairsEvents()) {
            results.sort(results.stream().anyMatch(r -> r instanceof SellerAverage) ? CLOSE_ORDER : WINDOW_ORDER);
        }
        return results;
    }

    /** An item and its position in the input, so results can be put back in input order. */
    private record Numbered<T>(long index, T item) {
    }

    private static <R> StreamStage<Numbered<?>> attachNumbered(PerEventQuery<R> query, StreamStage<Numbered<Event>> numbered) {
        return query.attach(numbered, Numbered::item, (n, result) -> new Numbered<>(n.index(), result));
    }

    private static void write(List<?> results, Writer writer) throws IOException {
        for (Object r : results) {
            writer.write(ResultLines.of(r));
            writer.write('\n');
        }
    }

    private Writer openOutput() throws IOException {
        int buffer = 1 << 20;
        if (out.equals("-")) {
            return new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), buffer);
        }
        return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(Path.of(out)), StandardCharsets.UTF_8), buffer);
    }
}
