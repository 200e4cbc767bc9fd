package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One reader for every engine: what an engine cannot run, by the registry, is refused naming the field. */
class ScenarioTest {

    private static final String Q5 = "{'name':'q5','window_ms':1000,'slide_ms':100}";
    private static final String LOAD = "{'rate':1000,'keys':10}";
    private static final String NEEDS_ONE_JOB = "jobs: several jobs run on one member alone, from the in-process generator, continuously, "
            + "without a guarantee and endlessly so far; is 2 with ";

    /** A scenario for {@code engine}; {@code extra} is more top-level fields, or empty. */
    private static Scenario parse(String engine, String query, String load, int members, String extra) throws Exception {
        String json = "{'engine':'" + engine + "','query':" + query + ",'load':" + load + ",'cluster':{'threads':2,'members':" + members
                + "},'warmup_s':1,'duration_s':2" + (extra.isEmpty() ? "" : "," + extra) + "}";
        return Scenario.parse(new ObjectMapper().readTree(json.replace('\'', '"')), engine);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jet       | " + Q5 + "                                  | {'rate':1000,'keys':10,'source':'kafka'} | 1 |                           | load.source: jet reads \"in-process\"; is \"kafka\"",
        "flink     | " + Q5 + "                                  | " + LOAD + "                   | 1 | 'guarantee':'exactly-once' | guarantee: flink supports \"none\"; is \"exactly-once\"",
        "jet       | " + Q5 + "                                  | " + LOAD + "                   | 3 |                           | cluster.members: a jet member runs alone (1); is 3",
        "jet       | {'name':'q3'}                               | " + LOAD + "                   | 1 |                           | query.name: jet runs q1, q2, q5, q7, q8; is \"q3\"",
        "fournines | {'name':'sums'}                             | {'rate':1000,'keys':10,'source':'kafka'} | 1 |                 | load.source: query sums reads \"in-process\"; is \"kafka\"",
        "fournines | {'name':'q5','window_ms':1000,'slide_ms':300} | " + LOAD + "                 | 1 |                           | query.window_ms: must be a multiple of query.slide_ms (300); is 1000",
        "fournines | " + Q5 + "                                  | {'keys':10}                    | 1 |                           | load.rate: missing",
        "fournines | " + Q5 + "                                  | {'rate':1000,'keys':10,'events':0}| 1 |                           | load.events: must be at least 1; is 0",
        "jet       | " + Q5 + "                                  | " + LOAD + "                   | 1 | 'idle':'busy-spin'         | idle: jet idles its own way, so it takes only the default \"park-backoff\"; is \"busy-spin\"",
        "flink     | " + Q5 + "                                  | " + LOAD + "                   | 1 | 'idle':'jet-backoff'       | idle: flink idles its own way, so it takes only the default \"park-backoff\"; is \"jet-backoff\"",
        "fournines | " + Q5 + "                                  | " + LOAD + "                   | 1 | 'idle':'spin'              | idle: fournines idles with \"park-backoff\", \"busy-spin\", \"jet-backoff\"; is \"spin\"",
        "fournines | " + Q5 + "                                  | {'rate':1000,'keys':10,'source':'kafka'} | 1 | 'kafka_endpoint':{'bootstrap':'h:1','topic':'in','results_topic':'in'} | kafka_endpoint.results_topic: must name a topic other than the load's; is \"in\"",
    })
    void whatTheEngineCannotRunIsNamed(String engine, String query, String load, int members, String extra, String message) {
        assertThatThrownBy(() -> parse(engine, query, load, members, extra == null ? "" : extra))
                .isInstanceOf(ScenarioException.class).hasMessage(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fournines", "jet", "flink"})
    void theSameScenarioReadsTheSameForEveryEngine(String engine) throws Exception {
        Scenario s = parse(engine, Q5, LOAD, 1, "");
        assertThat(s.query()).isEqualTo("q5");
        assertThat(s.parameters().windowMs()).isEqualTo(1000);
        assertThat(s.parameters().slideMs()).isEqualTo(100);
        assertThat(s.rate()).isEqualTo(1000);
        assertThat(s.windowed()).isTrue();
        assertThat(s.guarantee()).isEqualTo(Scenario.Guarantee.NONE);
        assertThat(s.idle()).isEqualTo(Scenario.DEFAULT_IDLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"park-backoff", "busy-spin", "jet-backoff"})
    void theReferenceEngineIdlesAsTheScenarioSays(String idle) throws Exception {
        Scenario s = parse("fournines", Q5, LOAD, 1, "'idle':'" + idle + "'");
        assertThat(s.idle()).isEqualTo(idle);
        assertThat(s.job(0).idle()).isEqualTo(idle);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fournines", "jet", "flink"})
    void loadEventsBoundsTheGeneratorAndWithoutItTheLoadIsEndless(String engine) throws Exception {
        Scenario bounded = parse(engine, Q5, "{'rate':1000,'keys':10,'events':5000}", 1, "");
        assertThat(bounded.bounded()).isTrue();
        assertThat(bounded.generator().limit()).isEqualTo(5000);
        Scenario endless = parse(engine, Q5, LOAD, 1, "");
        assertThat(endless.bounded()).isFalse();
        assertThat(endless.generator().limit()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aKafkaLoadIsBoundedByLoadEventsAndMayNameATopicForTheResults() throws Exception {
        Scenario bounded = parse("fournines", Q5, "{'rate':1000,'keys':10,'events':5,'source':'kafka'}", 3,
                "'kafka_endpoint':{'bootstrap':'h:1','topic':'in','results_topic':'out'}");
        assertThat(bounded.bounded()).isTrue();
        assertThat(bounded.kafka()).isEqualTo(new KafkaEndpoint("h:1", "in", "out"));
    }

    @Test
    void theExecutionModelIsReadWithItsBatchesAndWhatCannotRunIsNamed() throws Exception {
        assertThat(parse("fournines", Q5, LOAD, 1, "").execution()).isEqualTo(Execution.CONTINUOUS);
        assertThat(parse("fournines", Q5, LOAD, 1, "'execution':'micro-batch','batch_ms':200").execution())
                .isEqualTo(new Execution("micro-batch", 200, 1, 0));
        assertThat(parse("fournines", Q5, LOAD, 1, "'execution':'group','batch_ms':100,'group_size':20").execution())
                .isEqualTo(new Execution("group", 100, 20, 0));
        assertThat(parse("fournines", Q5, LOAD, 1, "'execution':'group','batch_ms':100,'group_size':'auto','latency_target_ms':1000").execution())
                .isEqualTo(new Execution("group", 100, 0, 1000));
        String[][] refused = {
            {"jet", "'execution':'micro-batch','batch_ms':100", "execution: jet runs \"continuous\"; is \"micro-batch\""},
            {"fournines", "'execution':'sometimes'", "execution: must be one of \"continuous\", \"micro-batch\", \"group\"; is \"sometimes\""},
            {"fournines", "'batch_ms':100", "batch_ms: only for execution micro-batch or group; execution is continuous"},
            {"fournines", "'execution':'group','group_size':4", "batch_ms: missing"},
            {"fournines", "'execution':'micro-batch','batch_ms':100,'group_size':3", "group_size: micro-batch launches one batch at a time (1); is 3"},
            {"fournines", "'execution':'group','batch_ms':100,'group_size':'some'", "group_size: must be an integer or \"auto\"; is \"some\""},
            {"fournines", "'execution':'group','batch_ms':100,'group_size':'auto'", "latency_target_ms: missing; required when group_size is auto"},
            {"fournines", "'execution':'group','batch_ms':100,'group_size':4,'latency_target_ms':500", "latency_target_ms: only with group_size auto"},
        };
        for (String[] r : refused) {
            assertThatThrownBy(() -> parse(r[0], Q5, LOAD, 1, r[1])).isInstanceOf(ScenarioException.class).hasMessage(r[2]);
        }
        assertThat(parse("fournines", Q5, LOAD, 3, "'execution':'group','batch_ms':100,'group_size':4").execution())
                .isEqualTo(new Execution("group", 100, 4, 0));
        assertThat(parse("fournines", Q5, "{'rate':1000,'keys':10,'source':'kafka'}", 1, "'execution':'micro-batch','batch_ms':100").execution())
                .isEqualTo(new Execution("micro-batch", 100, 1, 0));
    }

    /** Each of several jobs runs its share of the rate (the remainder one event/s each to the first jobs) on a seed of its own. */
    @Test
    void severalJobsShareTheRateEachOnItsOwnSeed() throws Exception {
        Scenario three = parse("fournines", Q5, LOAD, 1, "'jobs':3");
        assertThat(three.jobs()).isEqualTo(3);
        assertThat(java.util.stream.IntStream.range(0, 3).mapToObj(three::job).map(j -> j.generator().rate())).containsExactly(334L, 333L, 333L);
        assertThat(java.util.stream.IntStream.range(0, 3).mapToObj(three::job).map(j -> j.generator().seed())).containsExactly(1L, 2L, 3L);
        assertThat(three.job(2).jobs()).isOne();
        Scenario one = parse("fournines", Q5, LOAD, 1, "");
        assertThat(one.jobs()).isOne();
        assertThat(one.generator()).isEqualTo(GeneratorSpec.endless(1000, 10));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "jet       | {'rate':1000,'keys':10}                  | 1 | 'jobs':2                              | jobs: a jet member runs one job (1); is 2",
        "fournines | {'rate':1000,'keys':10}                  | 1 | 'jobs':0                              | jobs: must be at least 1; is 0",
        "fournines | {'rate':1000,'keys':10}                  | 1 | 'jobs':1001                           | jobs: must be at most 1000; is 1001",
        "fournines | {'rate':5,'keys':10}                     | 1 | 'jobs':6                              | jobs: must be at most load.rate (5): each job runs at load.rate / jobs events/s, at least 1; is 6",
        "fournines | {'rate':1000,'keys':10}                  | 2 | 'jobs':2                              | " + NEEDS_ONE_JOB + "cluster.members 2",
        "fournines | {'rate':1000,'keys':10,'source':'kafka'} | 1 | 'jobs':2                              | " + NEEDS_ONE_JOB + "load.source kafka",
        "fournines | {'rate':1000,'keys':10}                  | 1 | 'jobs':2,'guarantee':'at-least-once','snapshot_interval_ms':100 | " + NEEDS_ONE_JOB + "guarantee at-least-once",
        "fournines | {'rate':1000,'keys':10}                  | 1 | 'jobs':2,'execution':'micro-batch','batch_ms':100 | " + NEEDS_ONE_JOB + "execution micro-batch",
        "fournines | {'rate':1000,'keys':10,'events':500}     | 1 | 'jobs':2                              | " + NEEDS_ONE_JOB + "load.events 500",
    })
    void severalJobsAreRefusedWhereTheyCannotRunYet(String engine, String load, int members, String extra, String message) {
        assertThatThrownBy(() -> parse(engine, Q5, load, members, extra)).isInstanceOf(ScenarioException.class).hasMessage(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"jet", "flink"})
    void aScenarioForAnotherEngineIsRefused(String engine) {
        assertThatThrownBy(() -> Scenario.parse(new ObjectMapper().readTree("{\"engine\":\"fournines\"}"), engine))
                .hasMessage("engine: this is the " + engine + " member; is \"fournines\"");
    }
}
