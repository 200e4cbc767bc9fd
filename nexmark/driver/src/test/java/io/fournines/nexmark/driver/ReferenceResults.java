package io.fournines.nexmark.driver;

import io.fournines.nexmark.generator.EventSchedule;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.LocalItemSuggestion;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.QueryRegistry;
import io.fournines.nexmark.query.RecordOrder;
import io.fournines.nexmark.query.reference.Q3Reference;
import io.fournines.nexmark.query.reference.References;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounded input the adapters' tests share, and what the reference computations answer for it: the
 * generator's first {@link #EVENTS} events at {@link #RATE} per second over {@link #KEYS} recycled
 * ids (ties in Q5 and Q7, persons with auctions in Q8), scheduled from a start in the past so a
 * paced source emits them all at once.
 */
public final class ReferenceResults {
    public static final long RATE = 20_000;
    public static final long KEYS = 100;
    public static final long EVENTS = 30_000;
    /** Q5: 500 ms windows every 100 ms; Q7 and Q8: 200 ms tumbling windows, over 1.5 s of event time. */
    public static final QueryParameters PARAMETERS = QueryParameters.defaults().withWindow(500, 100);
    public static final QueryParameters TUMBLING = QueryParameters.defaults().withWindow(200, 200);
    /** Q2: with ids recycled over 100 keys (1000-1099) Beam's skip of 123 selects nothing; 7 selects some. */
    public static final QueryParameters Q2 = QueryParameters.defaults().withAuctionSkip(7);

    private ReferenceResults() {
    }

    public static GeneratorSpec spec() {
        return GeneratorSpec.bounded(RATE, KEYS, EVENTS);
    }

    public static QueryParameters parameters(String query) {
        return switch (query) {
            case "q2" -> Q2;
            case "q5" -> PARAMETERS;
            default -> TUMBLING;
        };
    }

    /** A start far enough in the past that every event is due now; on a whole second, like a real t0 need not be. */
    public static long startEpochNanos() {
        return (Instant.now().getEpochSecond() - 10) * 1_000_000_000L;
    }

    /** A registered run that collects its results; unregister it when the job is done. */
    public static RunContext collectingRun(List<Object> into, long startEpochNanos) {
        List<Object> synced = Collections.synchronizedList(into);
        Consumer<Object> sink = synced::add;
        return RunContext.collecting(UUID.randomUUID().toString(), sink, startEpochNanos);
    }

    /** The reference computation's results for the same events. */
    public static List<Object> reference(String query, long startEpochNanos) {
        return new ArrayList<>(References.run(query, events(startEpochNanos), parameters(query)));
    }

    /** The bounded input's events, each at its scheduled time from {@code startEpochNanos}. */
    private static List<Event> events(long startEpochNanos) {
        GeneratorSpec spec = spec();
        NexmarkGenerator generator = new NexmarkGenerator(spec.config());
        EventSchedule schedule = new EventSchedule(spec.rate());
        List<Event> events = new ArrayList<>();
        for (long i = 0; i < spec.limit(); i++) {
            events.add(generator.event(i, Math.floorDiv(startEpochNanos + schedule.offsetNanos(i), 1_000_000L)));
        }
        return events;
    }

    /** Runs a query on an engine over the bounded input, its sinks reporting to {@code run}; returns when the job is done. */
    @FunctionalInterface
    public interface BoundedJob {
        void run(String query, RunContext run) throws Exception;
    }

    /** The queries the registry says {@code engine} runs that have a reference computation, for a parameterised test. */
    public static Stream<String> queriesOf(String engine) {
        return QueryRegistry.get().engine(engine).queries().stream().filter(References::covers);
    }

    /**
     * The engine gives the reference computation's results for the bounded input and, through the
     * driver's one completion rule, declares the same windows complete as every other engine: those
     * ending at or before the last event's slide boundary, with no result coming after its window
     * was declared complete.
     */
    public static void assertMatchesReference(String query, BoundedJob job) throws Exception {
        assertMatchesReference(query, startEpochNanos(), job);
    }

    /** The same, over the schedule starting at {@code start} (epoch ns): a start ahead paces the events. */
    public static void assertMatchesReference(String query, long start, BoundedJob job) throws Exception {
        List<Object> results = new ArrayList<>();
        RunContext run = collectingRun(results, start);
        try {
            job.run(query, run);
        } finally {
            run.unregister();
        }
        if (query.equals("q3")) {
            assertJoinResults(results, start);
        } else {
            assertSameResults(query, results, reference(query, start));
        }
        if (QueryRegistry.get().query(query).windowed()) {
            long slide = parameters(query).slideMs();
            long lastEventMillis = Math.floorDiv(start + new EventSchedule(RATE).offsetNanos(EVENTS - 1), 1_000_000L);
            assertThat(Math.floorDiv(run.windowsCompleteUpTo(), slide) * slide).as("%s: the last window declared complete", query)
                    .isEqualTo(Math.floorDiv(lastEventMillis, slide) * slide);
            assertThat(run.windowResultsAfterCompletion()).as("%s: results after their window was declared complete", query).isZero();
        }
    }

    /**
     * Q3 on a stream drops auctions and persons (see {@link Q3Reference#runExpiring}): every pair
     * both halves were held for, no pair the whole join does not give, and fewer than it gives, so
     * the dropping is seen to happen.
     */
    private static void assertJoinResults(List<Object> actual, long start) {
        List<Object> all = reference("q3", start);
        List<LocalItemSuggestion> held = Q3Reference.runExpiring(events(start), parameters("q3").personTtlMs());
        assertThat(held).as("q3: pairs both halves were held for").isNotEmpty().hasSizeLessThan(all.size());
        assertThat(actual).as("q3 results: within the whole join's").hasSizeLessThanOrEqualTo(all.size());
        Map<Object, Long> remaining = actual.stream().collect(Collectors.groupingBy(r -> r, Collectors.counting()));
        held.forEach(pair -> assertThat(remaining.merge(pair, -1L, Long::sum)).as("q3: a pair both halves were held for: %s", pair)
                .isGreaterThanOrEqualTo(0L));
        Map<Object, Long> allowed = all.stream().collect(Collectors.groupingBy(r -> r, Collectors.counting()));
        actual.stream().collect(Collectors.groupingBy(r -> r, Collectors.counting())).forEach((pair, n) ->
                assertThat(n).as("q3: copies of %s, against the whole join's", pair).isLessThanOrEqualTo(allowed.getOrDefault(pair, 0L)));
    }

    /** The same results, in any order; and some results at all, so the comparison can fail. */
    public static void assertSameResults(String query, List<Object> actual, List<Object> expected) {
        assertThat(expected).as("%s: the reference gives results for this input", query).isNotEmpty();
        List<Object> a = new ArrayList<>(actual);
        List<Object> e = new ArrayList<>(expected);
        a.sort(RecordOrder.INSTANCE);
        e.sort(RecordOrder.INSTANCE);
        assertThat(a).as("%s results", query).hasSize(e.size()).containsExactlyElementsOf(e);
    }
}
