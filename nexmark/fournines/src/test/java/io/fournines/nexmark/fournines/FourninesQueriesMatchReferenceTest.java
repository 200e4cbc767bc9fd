package io.fournines.nexmark.fournines;

import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.driver.ReferenceResults;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

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
}
