package io.fournines.nexmark.jet;

import com.hazelcast.core.HazelcastInstance;
import io.fournines.nexmark.driver.ReferenceResults;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/** Each query Jet runs, fed by the paced source over a bounded input, gives the reference results and window completion. */
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

    static Stream<String> queries() {
        return ReferenceResults.queriesOf("jet");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void matchesTheReference(String query) throws Exception {
        ReferenceResults.assertMatchesReference(query, (q, run) ->
                member.getJet().newJob(JetQueries.pipeline(q, ReferenceResults.parameters(q), ReferenceResults.spec(), 2, run)).join());
    }
}
