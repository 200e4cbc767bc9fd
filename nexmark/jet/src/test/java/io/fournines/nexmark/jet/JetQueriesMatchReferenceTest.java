package io.fournines.nexmark.jet;

import com.hazelcast.core.HazelcastInstance;
import io.fournines.nexmark.driver.ReferenceResults;
import io.fournines.nexmark.driver.RunContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

/** Each query on Jet, fed by the paced source over a bounded input, gives the reference engine's results. */
class JetQueriesMatchReferenceTest {

    private static HazelcastInstance member;

    @BeforeAll
    static void startMember() {
        member = JetEngine.startMember(2);
    }

    @AfterAll
    static void stopMember() {
        member.shutdown();
    }

    @ParameterizedTest
    @ValueSource(strings = {"q1", "q2", "q5", "q7", "q8"})
    void matchesTheReferenceEngine(String query) {
        long start = ReferenceResults.startEpochNanos();
        List<Object> results = new ArrayList<>();
        RunContext run = ReferenceResults.collectingRun(results, start);
        try {
            member.getJet().newJob(JetQueries.pipeline(query, ReferenceResults.parameters(query), ReferenceResults.spec(), 2, run)).join();
        } finally {
            run.unregister();
        }
        ReferenceResults.assertSameResults(query, results, ReferenceResults.reference(query, start));
    }
}
