package io.fournines.engine.processor;

import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.InboxImpl;
import io.fournines.engine.processor.SlidingWindowPTest.ListOutbox;
import io.fournines.engine.processor.SlidingWindowPTest.SingleInstance;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.TreeSet;
import java.util.function.Function;

import static io.fournines.engine.processor.SlidingWindowPTest.feed;
import static org.assertj.core.api.Assertions.assertThat;

/** Expiring state driven by hand: what the watermark drops, and what survives a snapshot. */
public class MapStatefulPExpiryTest {

    /** An item of key {@code key} at event time {@code time}. */
    record Timed(String key, long time) {
    }

    /** The times a key has seen that the watermark has not passed (the job-level test's state too). */
    public static final class Times implements ExpiringState, Serializable {
        public final TreeSet<Long> held = new TreeSet<>();

        @Override
        public long nextExpiry() {
            return held.isEmpty() ? Long.MAX_VALUE : held.first() + 1;
        }

        @Override
        public boolean expire(long watermark) {
            held.headSet(watermark).clear();
            return !held.isEmpty();
        }
    }

    private static final Function<Timed, String> KEY = Timed::key;

    /** Each item's output: how many times its key holds once it is added. */
    private static final MapStatefulP.StatefulMapFn<Times, String, Timed, Integer> ADD = (times, key, item) -> {
        times.held.add(item.time());
        return times.held.size();
    };

    private static MapStatefulP heldCounts() {
        return new MapStatefulP(KEY, Times::new, ADD, true);
    }

    private static ListOutbox init(MapStatefulP p) throws Exception {
        ListOutbox out = new ListOutbox();
        p.init(out, new SingleInstance());
        return out;
    }

    @Test
    void theWatermarkDropsWhatItPassedAndEmptyStatesGo() throws Exception {
        MapStatefulP p = heldCounts();
        ListOutbox out = init(p);

        feed(p, new Timed("a", 10), new Timed("a", 20), new Timed("b", 15), new Watermark(16),
                new Timed("a", 30), new Timed("b", 40));

        // a kept 20 and so holds two; b was emptied and dropped, so it starts again from one.
        assertThat(out.items).containsExactly(1, 2, 1, new Watermark(16), 2, 1);
    }

    @Test
    void theIdleMarkerExpiresNothing() throws Exception {
        MapStatefulP p = heldCounts();
        ListOutbox out = init(p);

        feed(p, new Timed("a", 10), Watermark.IDLE, new Timed("a", 20));

        assertThat(out.items).containsExactly(1, Watermark.IDLE, 2);
    }

    @Test
    void withoutExpiringStateIsKeptForTheJob() throws Exception {
        MapStatefulP p = new MapStatefulP(KEY, Times::new, ADD, false);
        ListOutbox out = init(p);

        feed(p, new Timed("a", 10), new Watermark(50), new Timed("a", 60));

        assertThat(out.items).containsExactly(1, new Watermark(50), 2);
    }

    @Test
    void restoredStatesAreScheduledToExpire() throws Exception {
        MapStatefulP saved = heldCounts();
        ListOutbox savedOut = init(saved);
        feed(saved, new Timed("a", 10), new Timed("b", 30));
        assertThat(saved.saveToSnapshot()).isTrue();

        MapStatefulP restored = heldCounts();
        ListOutbox out = init(restored);
        InboxImpl entries = new InboxImpl();
        savedOut.snapshot.forEach(entries::add);
        restored.restoreFromSnapshot(entries);
        assertThat(restored.finishSnapshotRestore()).isTrue();
        feed(restored, new Watermark(20), new Timed("a", 40), new Timed("b", 50));

        assertThat(out.items).containsExactly(new Watermark(20), 1, 2);
    }
}
