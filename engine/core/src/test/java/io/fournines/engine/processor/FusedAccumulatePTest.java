package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The source and the window's first stage in one processor, driven by hand as a tasklet would. */
class FusedAccumulatePTest {

    @Test
    void aCallFoldsInAtMostAnOutboxsWorthOfItemsAndIsDueAgainAtOnce() throws Exception {
        ScriptedSource source = new ScriptedSource(times(0, 5_000));
        FusedAccumulateP fused = fused(source);
        fused.init(new SlidingWindowPTest.ListOutbox(), new SlidingWindowPTest.SingleInstance());

        assertThat(fused.complete()).isFalse();
        assertThat(source.next).isEqualTo(FusedAccumulateP.ITEMS_PER_CALL);
        assertThat(fused.nextDeadlineNanos()).as("due again at once: nothing else would wake it").isLessThanOrEqualTo(System.nanoTime());
        assertThat(fused.complete()).isFalse();
        assertThat(source.next).isEqualTo(2 * FusedAccumulateP.ITEMS_PER_CALL);
        assertThat(fused.complete()).isTrue();
        assertThat(fused.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * The outbox takes one partial of the watermark's frames, then a snapshot comes: the watermark
     * goes out once, after all its partials and before the snapshot's state.
     */
    @Test
    void aWatermarkTheOutboxCouldNotTakeAtOnceGoesOutOnceThoughASnapshotCameBetween() throws Exception {
        List<Object> script = new ArrayList<>(times(0, 30));
        script.add(new Watermark(20));
        script.addAll(times(30, 40));
        ScriptedSource source = new ScriptedSource(script);
        FusedAccumulateP fused = fused(source);
        Tight outbox = new Tight();
        fused.init(outbox, new SlidingWindowPTest.SingleInstance());

        outbox.room = 1;
        assertThat(fused.complete()).isFalse();
        outbox.room = Integer.MAX_VALUE;
        assertThat(fused.saveToSnapshot()).isTrue();
        while (!fused.complete()) {
            assertThat(source.next).isLessThanOrEqualTo(script.size());
        }

        List<Object> sent = outbox.inner.items;
        assertThat(sent.stream().filter(i -> i instanceof Watermark w && w.timestamp() == 20)).hasSize(1);
        int watermarkAt = sent.indexOf(new Watermark(20));
        assertThat(sent.subList(0, watermarkAt)).hasSize(6).allMatch(i -> i instanceof KeyedFrame f && f.frameEnd() <= 20);
        assertThat(outbox.inner.snapshot).isNotEmpty();
        assertThat(outbox.itemsBeforeSnapshot).isEqualTo(watermarkAt + 1);
    }

    /**
     * The source's last watermark is half handed over (the outbox refused one of its partials for a
     * moment) when the source completes: its partials go out, then every frame's, none lost.
     */
    @Test
    void framesAfterAWatermarkHalfHandedOverWhenTheSourceCompletesAreNotLost() throws Exception {
        List<Object> script = new ArrayList<>(times(0, 30));
        script.add(new Watermark(20));
        FusedAccumulateP fused = fused(new ScriptedSource(script));
        Tight outbox = new Tight();
        outbox.refuseOnce = 1;
        fused.init(outbox, new SlidingWindowPTest.SingleInstance());

        while (!fused.complete()) {
            assertThat(outbox.offers).isLessThan(100);
        }

        List<Object> sent = outbox.inner.items;
        assertThat(sent.stream().mapToLong(i -> i instanceof KeyedFrame f ? ((LongAccumulator) f.accumulator()).get() : 0).sum())
                .as("items counted in the partials sent").isEqualTo(30);
        assertThat(sent.subList(sent.indexOf(new Watermark(20)) + 1, sent.size()))
                .hasSize(3).allMatch(i -> i instanceof KeyedFrame f && f.frameEnd() == 30);
    }

    private static FusedAccumulateP fused(ScriptedSource source) {
        Function<Object, Object> key = x -> (Long) x % 3;
        ToLongFunction<Object> time = x -> (Long) x;
        return new FusedAccumulateP(source,
                new AccumulateByFrameP(key, time, WindowDefinition.tumbling(10), AggregateOperations.counting()));
    }

    private static List<Object> times(long from, long to) {
        List<Object> times = new ArrayList<>();
        for (long t = from; t < to; t++) {
            times.add(t);
        }
        return times;
    }

    /** Emits its script, items and watermarks, as far as the outbox takes them; saves nothing. */
    private static final class ScriptedSource extends AbstractProcessor {
        private final List<Object> script;
        int next;

        ScriptedSource(List<Object> script) {
            this.script = script;
        }

        @Override
        public boolean complete() {
            for (; next < script.size(); next++) {
                if (!tryEmit(script.get(next))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Takes {@code room} more items, then refuses; notes how many it held when the snapshot began. */
    private static final class Tight implements Outbox {
        final SlidingWindowPTest.ListOutbox inner = new SlidingWindowPTest.ListOutbox();
        int room = Integer.MAX_VALUE;
        /** The offer (counted from 0) refused once, as by a queue full for a moment; -1: none. */
        int refuseOnce = -1;
        int offers;
        int itemsBeforeSnapshot = -1;

        @Override
        public int bucketCount() {
            return 1;
        }

        @Override
        public boolean offer(int ordinal, Object item) {
            return offer(item);
        }

        @Override
        public boolean offer(Object item) {
            if (room == 0 || offers++ == refuseOnce) {
                return false;
            }
            room--;
            return inner.offer(item);
        }

        @Override
        public boolean offerToSnapshot(Object key, Object value) {
            if (itemsBeforeSnapshot < 0) {
                itemsBeforeSnapshot = inner.items.size();
            }
            return inner.offerToSnapshot(key, value);
        }

        @Override
        public boolean hasReachedLimit() {
            return room == 0;
        }
    }
}
