package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.job.Engine;
import io.fournines.engine.job.Job;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The two examples of the top-level README, verbatim between the markers, so the README stays true. */
class ReadmeExamplesTest {

    record Trade(String ticker, long timeMillis) {
    }

    @Test
    void wordCount() {
        // README: word count
        List<String> lines = List.of("the quick brown fox", "jumps over the lazy dog");
        List<Map.Entry<String, Long>> counts = new ArrayList<>();

        Pipeline p = Pipeline.create();
        p.readFrom(Sources.list(lines))
         .flatMap(line -> Traversers.traverseArray(line.split("\\W+")))
         .filter(word -> !word.isEmpty())
         .groupingKey(word -> word)
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(counts));

        try (Engine engine = Engine.start()) {
            engine.newJob(p).join();
        }
        // README end

        assertThat(counts).contains(Map.entry("the", 2L), Map.entry("fox", 1L)).hasSize(8);
    }

    @Test
    void slidingWindowCount() {
        // README: sliding window count
        String[] tickers = {"AAPL", "AMZN", "GOOG", "MSFT"};
        List<KeyedWindowResult<String, Long>> counts = new CopyOnWriteArrayList<>();

        Pipeline p = Pipeline.create();
        p.readFrom(Sources.generator(10_000, (seq, scheduledEpochNanos) ->
                        new Trade(tickers[(int) (seq % tickers.length)], scheduledEpochNanos / 1_000_000)))
         .withTimestamps(Trade::timeMillis, 0)
         .groupingKey(Trade::ticker)
         .window(WindowDefinition.sliding(1_000, 100))
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(counts));

        System.out.println(p.explain());
        try (Engine engine = Engine.start()) {
            Job job = engine.newJob(p);
            // ... the job runs until cancelled
        // README end
            await().atMost(10, TimeUnit.SECONDS).until(() -> counts.stream().anyMatch(r -> r.end() - r.start() == 1_000 && r.result() > 2_000));
            job.cancel();
        }
        assertThat(p.explain()).contains("accumulate-by-frame").contains("sliding-window");
    }
}
