package io.fournines.nexmark.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** graph.json spells an engine's routing constants as the member contract does. */
class JobGraphTest {

    private enum Routing { PARTITIONED, ALL_TO_ONE }

    @Test
    void anEnginesRoutingConstantIsSpelledInLowerCaseWithHyphens() {
        assertThat(JobGraph.Edge.of("a", "b", Routing.ALL_TO_ONE, true)).isEqualTo(new JobGraph.Edge("a", "b", "all-to-one", true));
        assertThat(JobGraph.Edge.of("a", "b", Routing.PARTITIONED, false).routing()).isEqualTo("partitioned");
    }
}
