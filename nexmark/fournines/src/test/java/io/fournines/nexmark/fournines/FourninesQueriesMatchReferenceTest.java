package io.fournines.nexmark.fournines;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.execution.ExecutionModel;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.JobConfig;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.ReferenceResults;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.generator.EventSchedule;
import io.fournines.nexmark.queries.ScheduledSums;
import io.fournines.nexmark.queries.YsbCampaignViews;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.YsbAds;
import io.fournines.nexmark.ysb.YsbGenerator;
import io.fournines.nexmark.ysb.YsbReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each query the reference engine's member runs, fed by its own paced source over the bounded input
 * the peers' tests use, gives the reference results and declares the same windows complete, under
 * each of the three execution models.
 */
class FourninesQueriesMatchReferenceTest {

    static Stream<String> queries() {
        return ReferenceResults.queriesOf(FourninesEngine.NAME);
    }

    /** Micro-batch and group execution, batches of 100 ms: the bounded input's 1.5 s make 15 batches. */
    static final List<ExecutionModel> BATCHED = List.of(ExecutionModel.microBatch(Duration.ofMillis(100)), ExecutionModel.group(Duration.ofMillis(100), 5));

    static Stream<Arguments> queriesInBatches() {
        return queries().flatMap(q -> BATCHED.stream().map(model -> Arguments.of(q, model)));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void matchesTheReference(String query) throws Exception {
        ReferenceResults.assertMatchesReference(query, (q, run) -> runBounded(q, ReferenceResults.parameters(q), ReferenceResults.spec(), run, ExecutionModel.CONTINUOUS));
    }

    /** The same results in batches, over a schedule that starts ahead so the events come in many batches, not one. */
    @ParameterizedTest
    @MethodSource("queriesInBatches")
    void matchesTheReferenceInBatches(String query, ExecutionModel model) throws Exception {
        ReferenceResults.assertMatchesReference(query, startAhead(), (q, run) -> runBounded(q, ReferenceResults.parameters(q), ReferenceResults.spec(), run, model));
    }

    /** YSB over the same bounded schedule, in 200 ms windows: the views per campaign of YSB's own computation, under every model. */
    @Test
    void ysbMatchesItsReference() throws Exception {
        assertYsbMatches(ReferenceResults.startEpochNanos(), ExecutionModel.CONTINUOUS);
        for (ExecutionModel model : BATCHED) {
            assertYsbMatches(startAhead(), model);
        }
    }

    /**
     * The scheduling micro-benchmark over the same bounded schedule, in 200 ms windows, without a
     * shuffle stage and through one of 16 keys: each window's sum of the numbers drawn in it, under every model.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 16})
    void sumsMatchTheNumbersDrawnInEachWindow(long reduceKeys) {
        assertSumsMatch(ReferenceResults.startEpochNanos(), ExecutionModel.CONTINUOUS, reduceKeys);
        for (ExecutionModel model : BATCHED) {
            assertSumsMatch(startAhead(), model, reduceKeys);
        }
    }

    private static void assertSumsMatch(long start, ExecutionModel model, long reduceKeys) {
        List<Object> results = new ArrayList<>();
        RunContext run = ReferenceResults.collectingRun(results, start);
        try {
            runBounded(ScheduledSums.NAME, ReferenceResults.TUMBLING, GeneratorSpec.bounded(ReferenceResults.RATE, reduceKeys, ReferenceResults.EVENTS),
                    run, model);
        } finally {
            run.unregister();
        }
        long windowMs = ReferenceResults.TUMBLING.windowMs();
        EventSchedule schedule = new EventSchedule(ReferenceResults.RATE);
        Map<Long, Long> expected = new TreeMap<>();
        for (long i = 0; i < ReferenceResults.EVENTS; i++) {
            long timeMs = Math.floorDiv(start + schedule.offsetNanos(i), 1_000_000L);
            expected.merge(Math.floorDiv(timeMs, windowMs) * windowMs + windowMs, ScheduledSums.number(i), Long::sum);
        }
        assertThat(expected).hasSizeGreaterThan(5);
        Map<Long, Long> actual = new TreeMap<>();
        results.forEach(r -> actual.merge(((ScheduledSums.WindowSum) r).end(), ((ScheduledSums.WindowSum) r).sum(), (a, b) -> {
            throw new AssertionError("two sums for the window ending at " + ((ScheduledSums.WindowSum) r).end());
        }));
        assertThat(actual).as("sums under %s, %d keys", model.kind(), reduceKeys).isEqualTo(expected);
    }

    private static void runBounded(String query, QueryParameters parameters, GeneratorSpec load, RunContext run, ExecutionModel model) {
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            long startEpochNanos = run.origin()[1];
            engine.newJob(FourninesPipelines.generatorFed(query, parameters, load, 2, run,
                    new ScheduleMonitor(), () -> GeneratorSourceP.SharedStart.at(startEpochNanos), event -> true, null, null).toDag(),
                    JobConfig.defaults().executing(model)).join();
        }
    }

    private static long startAhead() {
        return (System.currentTimeMillis() + 200) * 1_000_000L;
    }

    private static void assertYsbMatches(long start, ExecutionModel model) {
        List<Object> results = new ArrayList<>();
        RunContext run = ReferenceResults.collectingRun(results, start);
        try {
            runBounded(YsbCampaignViews.NAME, ReferenceResults.TUMBLING, ReferenceResults.spec(), run, model);
        } finally {
            run.unregister();
        }
        YsbGenerator generator = new YsbGenerator(YsbAds.SEED, YsbAds.standard());
        EventSchedule schedule = new EventSchedule(ReferenceResults.RATE);
        List<AdEvent> events = LongStream.range(0, ReferenceResults.EVENTS).mapToObj(i -> generator.event(i, start + schedule.offsetNanos(i))).toList();
        List<YsbReference.CampaignCount> expected = YsbReference.counts(events, YsbAds.standard(), ReferenceResults.TUMBLING.windowMs());
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(results.stream().map(r -> (YsbCampaignViews.CampaignViews) r)
                .map(v -> new YsbReference.CampaignCount(v.end(), v.campaignId(), v.views()))).as("YSB under %s", model.kind())
                .containsExactlyInAnyOrderElementsOf(expected);
    }
}
