package io.fournines.engine.processor;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.aggregate.AggregateOperations;
import io.fournines.engine.aggregate.LongAccumulator;
import io.fournines.engine.aggregate.OverKeysOperation;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.GlobalKey;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.execution.InboxImpl;
import io.fournines.engine.execution.Partitioner;
import io.fournines.engine.window.KeyedFrame;
import io.fournines.engine.window.KeyedWindowResult;
import io.fournines.engine.window.LongKeyedSum;
import io.fournines.engine.window.WindowDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The second window stage driven by hand, item by item, to pin down orderings a job rarely hits. */
class SlidingWindowPTest {

    /** Collects everything, snapshot entries apart, those as copies (a snapshot serializes them when offered); never refuses. */
    static final class ListOutbox implements Outbox {
        final List<Object> items = new ArrayList<>();
        final List<Map.Entry<Object, Object>> snapshot = new ArrayList<>();

        @Override
        public boolean offerToSnapshot(Object key, Object value) {
            return snapshot.add(Map.entry(key, serializedCopy(value)));
        }

        private static Object serializedCopy(Object value) {
            try {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                    out.writeObject(value);
                }
                return new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())).readObject();
            } catch (IOException | ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }

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

        @Override
        public int partitionOf(Object key) {
            return new Partitioner(Partitioner.DEFAULT_PARTITION_COUNT).partition(key);
        }
    }

    static void feed(Processor p, Object... partialsAndWatermarks) {
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

    /** Counting as sums of longs (primitive frames), or as an operation of accumulator objects that cannot deduct. */
    private static AggregateOperation<Object, LongAccumulator, Long> counting(boolean sumOfLongs) {
        return sumOfLongs
                ? AggregateOperations.counting()
                : AggregateOperation.of(LongAccumulator::new, (LongAccumulator acc, Object item) -> acc.add(1),
                        (acc, other) -> acc.add(other.get()), LongAccumulator::get);
    }

    private static KeyedFrame count(long frameEnd, long n) {
        return count(frameEnd, 1L, n);
    }

    private static KeyedFrame count(long frameEnd, Object key, long n) {
        return new KeyedFrame(frameEnd, key, new LongAccumulator(n));
    }

    @ParameterizedTest(name = "deducting: {0}")
    @ValueSource(booleans = {true, false})
    void aFrameOlderThanOneSkippedToIsStillCounted(boolean deducting) throws Exception {
        AggregateOperation<Object, LongAccumulator, Long> sum = counting(deducting);
        SlidingWindowP p = new SlidingWindowP(WindowDefinition.sliding(20, 10), sum, KeyedWindowResult::new);
        ListOutbox out = new ListOutbox();
        p.init(out, new SingleInstance());

        // A fast input's frame [20, 30), a watermark that closes nothing, then a slower input's frame [10, 20).
        feed(p, count(30, 1), new Watermark(10), count(20, 2), new Watermark(40));

        assertThat(out.items).containsExactly(
                new Watermark(10),
                new KeyedWindowResult<>(0L, 20L, 1L, 2L),
                new KeyedWindowResult<>(10L, 30L, 1L, 3L),
                new KeyedWindowResult<>(20L, 40L, 1L, 1L),
                new Watermark(40));
    }

    /**
     * State saved in the middle of a window, restored into a fresh instance: the rest of the stream
     * gives the same windows as an instance that never stopped, for both kinds of frame state.
     */
    @ParameterizedTest(name = "deducting sums of longs: {0}")
    @ValueSource(booleans = {true, false})
    void stateSavedMidWindowRestoresToTheSameResults(boolean sumOfLongs) throws Exception {
        AggregateOperation<Object, LongAccumulator, Long> sum = counting(sumOfLongs);
        assertRestoredMidWindowGoesOnAsUninterrupted(() -> new SlidingWindowP(WindowDefinition.sliding(20, 10), sum, KeyedWindowResult::new));
    }

    /** The same over keys: the partial of each window holds the keys' sums restored and received since. */
    @Test
    void overKeysStateSavedMidWindowRestoresToTheSameResults() throws Exception {
        List<Object> output = assertRestoredMidWindowGoesOnAsUninterrupted(() -> FrameState.SUMS_OVER_KEYS.window(WindowDefinition.sliding(20, 10)));
        assertThat(output).contains(new KeyedFrame(30, GlobalKey.INSTANCE, new TreeMap<>(Map.of(1L, 14L, 2L, 2L))));
    }

    /**
     * A snapshot of a large window state is written while the stage goes on: partials for frames it
     * holds and windows that evict them arrive between the pieces. What it holds is the state as of
     * its barrier (a restore goes on exactly as an instance that never stopped), and the stage's own
     * output is unchanged by it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(FrameState.class)
    void aSnapshotWrittenWhileWindowsGoOnHoldsTheStateAsOfItsBarrier(FrameState state) throws Exception {
        Supplier<SlidingWindowP> window = () -> state.window(WindowDefinition.sliding(200, 10));
        // Frames up to 500 with 1 000 keys each, windows emitted up to 400: 30 frames, 30 000 partials, are held.
        Supplier<List<Object>> before = () -> frames(state, 10, 500, 400);
        Supplier<List<Object>> after = () -> frames(state, 410, 1200, 1200);

        SlidingWindowP uninterrupted = window.get();
        ListOutbox expected = new ListOutbox();
        uninterrupted.init(expected, new SingleInstance());
        feed(uninterrupted, before.get().toArray());
        expected.items.clear();
        feed(uninterrupted, after.get().toArray());

        SlidingWindowP saved = window.get();
        ListOutbox savedOut = new ListOutbox();
        saved.init(savedOut, new SingleInstance());
        feed(saved, before.get().toArray());
        savedOut.items.clear();
        assertThat(saved.saveToSnapshot()).isTrue();
        boolean written = false;
        int calls = 0;
        for (Object item : after.get()) {
            feed(saved, item);
            // A piece every 1 000 items: frames the save holds get partials and are evicted before it writes them.
            if (!written && ++calls % 1_000 == 0) {
                written = saved.continueSnapshotSave();
            }
        }
        if (state != FrameState.OBJECTS) {
            // Written over many calls, so windows, evictions and partials for held frames came in between.
            assertThat(calls / 1_000).isGreaterThan(PartitionedSeries.ROUNDS);
        }
        assertThat(written).isTrue();
        // Keys come out in their maps' order, which a copied or restored map need not keep.
        assertThat(savedOut.items).containsExactlyInAnyOrderElementsOf(expected.items);

        ListOutbox restoredOut = new ListOutbox();
        SlidingWindowP restored = restoredFrom(window, savedOut.snapshot, restoredOut);
        feed(restored, after.get().toArray());
        assertThat(restoredOut.items).isNotEmpty().containsExactlyInAnyOrderElementsOf(expected.items);
    }

    /**
     * The forms of a window's frames: accumulator objects, sums of longs, sums under long keys (per
     * key, or over keys); the last two get their partials as a job sends them, as {@link LongKeyedSum}s.
     */
    enum FrameState {
        OBJECTS, SUMS, SUMS_UNDER_LONG_KEYS, SUMS_OVER_KEYS;

        SlidingWindowP window(WindowDefinition definition) {
            return switch (this) {
                case OBJECTS -> new SlidingWindowP(definition, counting(false), KeyedWindowResult::new);
                case SUMS -> new SlidingWindowP(definition, counting(true), KeyedWindowResult::new);
                case SUMS_UNDER_LONG_KEYS -> SlidingWindowP.underLongKeys(definition, AggregateOperations.counting(), KeyedWindowResult::new);
                case SUMS_OVER_KEYS -> SlidingWindowP.overKeys(definition, AggregateOperations.counting(), ALL_SUMS);
            };
        }

        Object count(long frameEnd, long key, long n) {
            return this == OBJECTS || this == SUMS ? SlidingWindowPTest.count(frameEnd, key, n) : new LongKeyedSum(frameEnd, key, n);
        }
    }

    /** Over keys, every key's sum of the window. */
    private static final OverKeysOperation<TreeMap<Long, Long>, TreeMap<Long, Long>> ALL_SUMS = new OverKeysOperation<>(TreeMap::new,
            (TreeMap<Long, Long> acc, long key, long sum) -> acc.put(key, sum), TreeMap::putAll, acc -> acc);

    /**
     * Partials of 1 000 keys for frames ending {@code from}..{@code to}, each key counting its frame's
     * end over 10 plus the key, and after each frame a watermark up to {@code watermarkUpTo}.
     */
    private static List<Object> frames(FrameState state, long from, long to, long watermarkUpTo) {
        List<Object> items = new ArrayList<>();
        for (long end = from; end <= to; end += 10) {
            for (long key = 0; key < 1_000; key++) {
                items.add(state.count(end, key, end / 10 + key));
            }
            if (end <= watermarkUpTo) {
                items.add(new Watermark(end));
            }
        }
        return items;
    }

    /** A fresh instance that restored {@code snapshot} and emits into {@code out}. */
    private static SlidingWindowP restoredFrom(Supplier<SlidingWindowP> window, List<Map.Entry<Object, Object>> snapshot, ListOutbox out)
            throws Exception {
        SlidingWindowP restored = window.get();
        restored.init(out, new SingleInstance());
        InboxImpl entries = new InboxImpl();
        snapshot.forEach(entries::add);
        restored.restoreFromSnapshot(entries);
        assertThat(restored.finishSnapshotRestore()).isTrue();
        return restored;
    }

    private static void saveWhole(Processor p) {
        assertThat(p.saveToSnapshot()).isTrue();
        for (int calls = 0; !p.continueSnapshotSave(); calls++) {
            assertThat(calls).isLessThan(1_000);
        }
    }

    /** Returns what the restored instance emitted after the restore. */
    private static List<Object> assertRestoredMidWindowGoesOnAsUninterrupted(Supplier<SlidingWindowP> window) throws Exception {
        // Fresh partials for every run: the window stage takes ownership of a partial's accumulator.
        Supplier<Object[]> before = () -> new Object[] {count(10, 1), count(20, 2), count(20, 2L, 2), new Watermark(20), count(30, 4)};
        Supplier<Object[]> after = () -> new Object[] {count(30, 8), new Watermark(30), count(40, 16), new Watermark(60)};

        SlidingWindowP uninterrupted = window.get();
        ListOutbox expected = new ListOutbox();
        uninterrupted.init(expected, new SingleInstance());
        feed(uninterrupted, before.get());
        expected.items.clear();
        feed(uninterrupted, after.get());

        SlidingWindowP saved = window.get();
        ListOutbox savedOut = new ListOutbox();
        saved.init(savedOut, new SingleInstance());
        feed(saved, before.get());
        saveWhole(saved);

        ListOutbox restoredOut = new ListOutbox();
        SlidingWindowP restored = restoredFrom(window, savedOut.snapshot, restoredOut);
        feed(restored, after.get());

        assertThat(restoredOut.items).isNotEmpty().containsExactlyElementsOf(expected.items);
        return restoredOut.items;
    }
}
