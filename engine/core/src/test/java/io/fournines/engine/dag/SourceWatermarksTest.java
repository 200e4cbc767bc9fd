package io.fournines.engine.dag;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.ExecutionConfig;
import io.fournines.engine.job.Engine;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.engine.processor.WatermarkPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** Every source instance makes its own watermarks from its own items, one per granularity step. */
class SourceWatermarksTest {

    static final ConcurrentHashMap<Integer, List<Long>> received = new ConcurrentHashMap<>();

    static final class WatermarkRecorderP extends AbstractProcessor {
        @Override
        protected boolean tryProcess(int ordinal, Object item) {
            return true;
        }

        @Override
        public boolean tryProcessWatermark(Watermark watermark) {
            received.computeIfAbsent(getContext().processorIndex(), i -> new CopyOnWriteArrayList<>()).add(watermark.timestamp());
            return true;
        }
    }

    @Test
    void eachInstanceAdvancesItsWatermarkStepByStep() {
        // 40 000 items, event time = sequence number: 400 steps of 100 per instance, whatever the other does.
        ToLongFunction<Long> timestamp = seq -> seq;
        WatermarkPolicy policy = new WatermarkPolicy(timestamp, 0, 100);
        GeneratorSourceP.SharedStart start = new GeneratorSourceP.SharedStart();
        ScheduleMonitor monitor = new ScheduleMonitor();
        Dag dag = new Dag();
        Vertex source = dag.newVertex("source", () -> new GeneratorSourceP<>(1e9, 40_000, (seq, time) -> seq, policy, start, monitor));
        Vertex recorder = dag.newVertex("recorder", WatermarkRecorderP::new);
        dag.edge(Edge.between(source, recorder).isolated());

        try (Engine engine = Engine.start(ExecutionConfig.defaults().withCooperativeThreads(2))) {
            engine.newJob(dag).join();
        }

        assertThat(received).containsOnlyKeys(0, 1);
        for (List<Long> watermarks : received.values()) {
            assertThat(watermarks).hasSize(400).isSorted().doesNotHaveDuplicates();
            assertThat(watermarks.get(watermarks.size() - 1)).isEqualTo(39_900L);
        }
    }
}
