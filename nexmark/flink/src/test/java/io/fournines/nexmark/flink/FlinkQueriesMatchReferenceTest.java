package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.ReferenceResults;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.RunRef;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Each query on Flink, fed by the paced source over a bounded input, gives the reference engine's
 * results. One MiniCluster for the class: it takes seconds to start.
 */
class FlinkQueriesMatchReferenceTest {

    @TempDir
    static Path tmp;
    private static MiniCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = FlinkEngine.startCluster(2, tmp);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q5", "q7", "q8"})
    void matchesTheReferenceEngine(String query) throws Exception {
        long start = ReferenceResults.startEpochNanos();
        List<Object> results = new ArrayList<>();
        RunContext run = ReferenceResults.collectingRun(results, start);
        try {
            StreamExecutionEnvironment env = FlinkEngine.environment(2);
            FlinkQueries.build(env, query, ReferenceResults.parameters(query), ReferenceResults.spec(), new RunRef(run));
            FlinkEngine.submit(cluster, env).result().get();
        } finally {
            run.unregister();
        }
        ReferenceResults.assertSameResults(query, results, ReferenceResults.reference(query, start));
    }
}
