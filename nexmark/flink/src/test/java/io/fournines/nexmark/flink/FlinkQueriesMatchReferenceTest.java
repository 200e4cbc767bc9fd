package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.ReferenceResults;
import io.fournines.nexmark.driver.RunRef;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

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

    static Stream<String> queries() {
        return ReferenceResults.queriesOf("flink");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void matchesTheReference(String query) throws Exception {
        ReferenceResults.assertMatchesReference(query, (q, run) -> {
            StreamExecutionEnvironment env = FlinkEngine.environment(2);
            FlinkQueries.build(env, q, ReferenceResults.parameters(q), ReferenceResults.spec(), new RunRef(run));
            FlinkEngine.submit(cluster, env).result().get();
        });
    }
}
