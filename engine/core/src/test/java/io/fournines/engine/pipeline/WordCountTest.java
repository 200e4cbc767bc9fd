package io.fournines.engine.pipeline;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.core.Traversers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class WordCountTest extends TestEngines {

    @Test
    void countsEveryWordOfManyLines() {
        Random random = new Random(42);
        String[] vocabulary = {"stream", "latency", "tasklet", "window", "frame", "queue", "core", "nines"};
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = random.nextInt(12); w >= 0; w--) {
                line.append(vocabulary[random.nextInt(vocabulary.length)]).append(w % 3 == 0 ? ", " : " ");
            }
            lines.add(line.toString());
        }

        List<Map.Entry<String, Long>> counts = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.list(lines))
         .flatMap(line -> Traversers.traverseArray(line.toLowerCase().split("\\W+")))
         .filter(word -> !word.isEmpty())
         .groupingKey(word -> word)
         .aggregate(AggregateOperations.counting())
         .writeTo(Sinks.list(counts));
        engine.newJob(p).join();

        Map<String, Long> expected = lines.stream()
                .flatMap(line -> Arrays.stream(line.toLowerCase().split("\\W+")))
                .filter(word -> !word.isEmpty())
                .collect(Collectors.groupingBy(w -> w, Collectors.counting()));
        Map<String, Long> actual = new HashMap<>();
        counts.forEach(e -> assertThat(actual.put(e.getKey(), e.getValue())).as("one result per word").isNull());
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void globalAggregateGivesOneResult() {
        List<Long> out = new ArrayList<>();
        Pipeline p = Pipeline.create();
        p.readFrom(Sources.items(3L, 1L, 4L, 1L, 5L, 9L, 2L, 6L))
         .aggregate(AggregateOperations.summingLong(x -> x))
         .writeTo(Sinks.list(out));
        engine.newJob(p).join();
        assertThat(out).containsExactly(31L);
    }
}
