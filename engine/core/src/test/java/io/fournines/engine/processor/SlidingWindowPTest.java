package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.InboxImpl;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The second window stage driven by hand, item by item, to pin down orderings a job rarely hits. */
class SlidingWindowPTest {

    /** Collects everything; never refuses. */
    static final class ListOutbox implements Outbox {
        final List<Object> items = new ArrayList<>();

        @Override
        public int bucketCount() {
            return 1;
        }

        @Override
        public boolean offer(int ordinal, Object item) {
            return items.add(item);
        }

        @Override
        public boolean offer(Object item) {
            return items.add(item);
        }

        @Override
        public boolean hasReachedLimit() {
            return false;
        }
    }

    static final class SingleInstance implements Processor.Context {
        @Override
        public String vertexName() {
            return "window";
        }

        @Override
        public int processorIndex() {
            return 0;
        }

        @Override
        public int parallelism() {
            return 1;
        }

        @Override
        public Counter counter(String name) {
            return new Counter();
        }
    }

    private static void feed(Processor p, Object... partialsAndWatermarks) {
        for (Object item : partialsAndWatermarks) {
            if (item instanceof Watermark wm) {
                assertThat(p.tryProcessWatermark(wm)).isTrue();
            } else {
                InboxImpl inbox = new InboxImpl();
                inbox.add(item);
                p.process(0, inbox);
                assertThat(inbox.isEmpty()).isTrue();
            }
        }
    }

    private static KeyedFrame count(long frameEnd, long n) {
        return new KeyedFrame(frameEnd, "k", new LongAccumulator(n));
    }

    @ParameterizedTest(name = "deducting: {0}")
    @ValueSource(booleans = {true, false})
    void aFrameOlderThanOneSkippedToIsStillCounted(boolean deducting) throws Exception {
        AggregateOperation<Object, LongAccumulator, Long> sum = deducting
                ? AggregateOperations.counting()
                : AggregateOperation.of(LongAccumulator::new, (LongAccumulator acc, Object item) -> acc.add(1),
                        (acc, other) -> acc.add(other.get()), LongAccumulator::get);
        SlidingWindowP p = new SlidingWindowP(WindowDefinition.sliding(20, 10), sum, KeyedWindowResult::new);
        ListOutbox out = new ListOutbox();
        p.init(out, new SingleInstance());

        // A fast input's frame [20, 30), a watermark that closes nothing, then a slower input's frame [10, 20).
        feed(p, count(30, 1), new Watermark(10), count(20, 2), new Watermark(40));

        assertThat(out.items).containsExactly(
                new Watermark(10),
                new KeyedWindowResult<>(0L, 20L, "k", 2L),
                new KeyedWindowResult<>(10L, 30L, "k", 3L),
                new KeyedWindowResult<>(20L, 40L, "k", 1L),
                new Watermark(40));
    }
}
