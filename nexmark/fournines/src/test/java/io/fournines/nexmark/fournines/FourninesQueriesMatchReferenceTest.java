package io.fournines.nexmark.fournines;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.driver.ReferenceResults;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.generator.EventSchedule;
import io.fournines.nexmark.queries.YsbCampaignViews;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.YsbAds;
import io.fournines.nexmark.ysb.YsbGenerator;
import io.fournines.nexmark.ysb.YsbReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each query the reference engine's member runs, fed by its own paced source over the bounded input
 * the peers' tests use, gives the reference results and declares the same windows complete.
 */
class FourninesQueriesMatchReferenceTest {

    static Stream<String> queries() {
        return ReferenceResults.queriesOf(FourninesEngine.NAME);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void matchesTheReference(String query) throws Exception {
        ReferenceResults.assertMatchesReference(query, (q, run) -> {
            try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
                long startEpochNanos = run.origin()[1];
                engine.newJob(FourninesPipelines.generatorFed(q, ReferenceResults.parameters(q), ReferenceResults.spec(), 2, run,
                        new ScheduleMonitor(), () -> GeneratorSourceP.SharedStart.at(startEpochNanos), event -> true, null, null).toDag()).join();
            }
        });
    }

    /** YSB over the same bounded schedule, in 200 ms windows: the views per campaign of YSB's own computation. */
    @Test
    void ysbMatchesItsReference() {
        long start = ReferenceResults.startEpochNanos();
        List<Object> results = new ArrayList<>();
        RunContext run = ReferenceResults.collectingRun(results, start);
        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            engine.newJob(FourninesPipelines.generatorFed(YsbCampaignViews.NAME, ReferenceResults.TUMBLING, ReferenceResults.spec(), 2, run,
                    new ScheduleMonitor(), () -> GeneratorSourceP.SharedStart.at(start), event -> true, null, null).toDag()).join();
        } finally {
            run.unregister();
        }
        YsbGenerator generator = new YsbGenerator(YsbAds.SEED, YsbAds.standard());
        EventSchedule schedule = new EventSchedule(ReferenceResults.RATE);
        List<AdEvent> events = LongStream.range(0, ReferenceResults.EVENTS).mapToObj(i -> generator.event(i, start + schedule.offsetNanos(i))).toList();
        List<YsbReference.CampaignCount> expected = YsbReference.counts(events, YsbAds.standard(), ReferenceResults.TUMBLING.windowMs());
        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(results.stream().map(r -> (YsbCampaignViews.CampaignViews) r)
                .map(v -> new YsbReference.CampaignCount(v.end(), v.campaignId(), v.views())))
                .containsExactlyInAnyOrderElementsOf(expected);
    }
}
