package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Clocks;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.SourceBatches;
import io.fournines.engine.core.Watermark;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An open-loop, rate-controlled source. Item {@code i} of the global sequence is due at
 * {@code t0 + i / rate}; it belongs to slice {@code i % n}, n being the number of instances (over all
 * members) when the job first started, and instance k starts with slice k: items k, k+n, k+2n, ...
 * A job restored on fewer instances deals the saved slices round-robin over them, and an instance
 * with several emits them interleaved in sequence (due-time) order. Each item is created with its
 * scheduled time, never the time it is actually sent, so a source that falls behind (backpressure,
 * a stall) turns the delay into measured latency instead of hiding it. It catches up as fast as it
 * can and reports how far behind it is.
 */
public final class GeneratorSourceP<T> extends AbstractProcessor {

    /** Makes item {@code sequence}, scheduled at {@code scheduledEpochNanos} (nanoseconds since 1970). */
    @FunctionalInterface
    public interface ItemFactory<T> {
        T create(long sequence, long scheduledEpochNanos);

        /**
         * The factory to use when what reads the source keeps nothing of an item once it has taken it
         * ({@link io.fournines.engine.pipeline.SourcePlan#reusableItems}): one that may refill one
         * object instead of making one per item. This one by default.
         */
        default ItemFactory<T> reusingItems() {
            return this;
        }
    }

    /** The time origin all instances of one source share, fixed by the first to start. */
    public static final class SharedStart {
        private final AtomicReference<long[]> origin = new AtomicReference<>();

        /** The origin the first instance to start reads from the clocks. */
        public SharedStart() {
        }

        /**
         * A fixed origin in wall-clock time, so that the members of a cluster, each with its own
         * instances, follow one schedule.
         */
        public static SharedStart at(long epochNanos) {
            SharedStart start = new SharedStart();
            long[] now = Clocks.pair();
            start.origin.set(new long[] {now[0] + (epochNanos - now[1]), epochNanos});
            return start;
        }

        /** {nanoTime at start, epoch nanos at the same instant} */
        long[] get() {
            if (origin.get() == null) {
                origin.compareAndSet(null, Clocks.pair());
            }
            return origin.get();
        }

        /** The origin of a schedule that started at {@code startEpochNanos}, in this JVM's nanoTime. */
        static long[] resumedAt(long startEpochNanos) {
            long[] now = Clocks.pair();
            return new long[] {now[0] - (now[1] - startEpochNanos), startEpochNanos};
        }
    }

    /**
     * An idle worker is not woken for each item: on a VM a wake-up costs 15-40 us of CPU. It is woken
     * once the items of the next {@link #WAKEUP_SPAN_NANOS} are due, and at low rates once the next
     * this many are. Items that wait keep their scheduled time, so the wait shows in latency.
     */
    static final int WAKEUP_BATCH = 4;
    /**
     * Woken per item, a worker at 1 M items/s spent half its CPU on some 11 000 wake-ups a second;
     * waiting for 200 us of items halves the CPU and adds ~0.4 ms to the median (engine/MEASURED.md).
     */
    static final long WAKEUP_SPAN_NANOS = 200_000;
    /** ... and no item waits longer than this for a wake-up. */
    static final long MAX_WAKEUP_DELAY_NANOS = 10_000_000;

    private final double nanosPerItem;
    private final long maxItems;
    private final ItemFactory<T> factory;
    private final WatermarkGenerator watermarks;
    private final SharedStart sharedStart;
    private final ScheduleMonitor monitor;
    /** The items this instance made, in its monitor's sum. */
    private Counter emitted;

    private static final String POSITION = "generator-position";

    private Context context;
    private long startNanos;
    private long startEpochNanos;
    /** Slices in the job: the step between two items of one slice. */
    private int step;
    /** This instance's index over all members. */
    private int index;
    /** The slices this instance makes, and the next sequence of each. */
    private int[] slices;
    private long[] sliceNext;
    /** The slice whose item is next in sequence order (the smallest sliceNext). */
    private int current;
    private boolean restoredSlices;
    private int saved;
    private long nextSequence;
    private Object pendingItem;
    private int pendingSlice;
    private Watermark pendingWatermark;
    /** Null in continuous execution. */
    private SourceBatches batches;
    /** The batch whose marker comes next. */
    private long nextBatch;
    private BatchMarker pendingMarker;

    /**
     * @param itemsPerSecond total rate over all instances
     * @param maxItems       stop after this many items in total; Long.MAX_VALUE for an endless stream
     * @param watermarkPolicy null for a source without event time
     */
    public GeneratorSourceP(double itemsPerSecond, long maxItems, ItemFactory<T> factory, WatermarkPolicy watermarkPolicy,
                            SharedStart sharedStart, ScheduleMonitor monitor) {
        if (!(itemsPerSecond > 0)) {
            throw new IllegalArgumentException("generator rate must be > 0 items/s, got " + itemsPerSecond);
        }
        this.nanosPerItem = 1e9 / itemsPerSecond;
        this.maxItems = maxItems;
        this.factory = factory;
        this.watermarks = watermarkPolicy == null ? null : watermarkPolicy.newGenerator();
        this.sharedStart = sharedStart;
        this.monitor = monitor;
    }

    @Override
    public boolean cutsBatches() {
        return true;
    }

    @Override
    protected void init(Context context) {
        this.context = context;
        this.batches = context.sourceBatches();
        long[] origin = sharedStart.get();
        startNanos = origin[0];
        startEpochNanos = origin[1];
        // Instance k of n over the whole cluster: every member makes its own slice of one sequence.
        index = context.memberIndex() * context.parallelism() + context.processorIndex();
        step = context.parallelism() * context.memberCount();
        slices = new int[] {index};
        sliceNext = new long[] {index};
        nextSequence = index;
        ScheduleMonitor.checkInstance(index);
        emitted = monitor.newEmittedCount();
    }

    private long dueNanos(long sequence) {
        return startNanos + (long) (sequence * nanosPerItem);
    }

    @Override
    public boolean complete() {
        if (!flushPending()) {
            return false;
        }
        long now = System.nanoTime();
        try {
            if (batches == null) {
                emitDue(now, Long.MAX_VALUE);
            } else {
                emitReleasedBatches(now);
            }
        } finally {
            monitor.reportLag(index, nextSequence < maxItems ? Math.max(0, now - dueNanos(nextSequence)) : 0);
        }
        return nextSequence >= maxItems && pendingItem == null && pendingWatermark == null && pendingMarker == null;
    }

    /**
     * Micro-batch and group execution: every released batch whose end has passed, whole, each
     * followed by its marker, until the outbox refuses.
     */
    private void emitReleasedBatches(long now) {
        long released = batches.releasedBefore(startEpochNanos + (now - startNanos));
        while (true) {
            long end = batches.endOf(nextBatch);
            if (!emitDue(now, Math.min(end, released)) || end > released || nextSequence >= maxItems) {
                return;
            }
            pendingMarker = new BatchMarker(nextBatch++);
            if (!flushPending()) {
                return;
            }
        }
    }

    /** Emits the items due by {@code now} and scheduled before {@code beforeEpochNanos}; false while the outbox refuses. */
    private boolean emitDue(long now, long beforeEpochNanos) {
        while (nextSequence < maxItems) {
            long due = dueNanos(nextSequence);
            long scheduled = startEpochNanos + (due - startNanos);
            if (due > now || scheduled >= beforeEpochNanos) {
                return true;
            }
            T item = factory.create(nextSequence, scheduled);
            pendingSlice = current;
            sliceNext[current] += step;
            selectNext();
            // Counted before the hand-off: downstream may process (and count) it at once, and a reader
            // must never see more processed than emitted. Each instance counts on its own (no atomic per
            // item), so a restarted instance overlapping the one it replaces loses no count.
            emitted.increment();
            pendingItem = item;
            if (watermarks != null) {
                long wm = watermarks.observe(item);
                pendingWatermark = wm == WatermarkGenerator.NONE ? null : new Watermark(wm);
            }
            if (!flushPending()) {
                return false;
            }
        }
        return true;
    }

    /** Points {@link #current} and {@link #nextSequence} at the slice whose next item comes first. */
    private void selectNext() {
        current = 0;
        for (int s = 1; s < sliceNext.length; s++) {
            if (sliceNext[s] < sliceNext[current]) {
                current = s;
            }
        }
        nextSequence = sliceNext.length == 0 ? Long.MAX_VALUE : sliceNext[current];
    }

    /**
     * Saves, per slice, the schedule's origin, the slice count and the next sequence to emit (an item
     * made but refused by the outbox is made again), so a restored source goes on with the original
     * schedule: the time it was down shows as latency.
     */
    @Override
    public boolean saveToSnapshot() {
        for (; saved < slices.length; saved++) {
            long next = pendingItem != null && pendingSlice == saved ? sliceNext[saved] - step : sliceNext[saved];
            if (!tryEmitToSnapshot(new BroadcastKey(new InstanceStateKey(POSITION, slices[saved], step)), new long[] {next, startEpochNanos})) {
                return false;
            }
        }
        saved = 0;
        return true;
    }

    /** Takes the saved slices {@code s} with {@code s % instances == index}: every slice goes on, on fewer or more instances. */
    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        if (!(key instanceof BroadcastKey b && b.id() instanceof InstanceStateKey k && k.what().equals(POSITION))) {
            return;
        }
        if (!restoredSlices) {
            restoredSlices = true;
            step = k.parallelism();
            slices = new int[0];
            sliceNext = new long[0];
            selectNext();
        } else if (k.parallelism() != step) {
            throw new IllegalStateException("generator source '" + context.vertexName() + "': its snapshot holds slices of " + step
                    + " and of " + k.parallelism() + " slices");
        }
        if (k.index() % (context.parallelism() * context.memberCount()) == index) {
            long[] position = (long[]) value;
            slices = Arrays.copyOf(slices, slices.length + 1);
            sliceNext = Arrays.copyOf(sliceNext, sliceNext.length + 1);
            slices[slices.length - 1] = k.index();
            sliceNext[sliceNext.length - 1] = position[0];
            long[] origin = SharedStart.resumedAt(position[1]);
            startNanos = origin[0];
            startEpochNanos = origin[1];
            selectNext();
        }
    }

    /** Emits the item, the watermark it produced and a batch's marker; false while any is refused. */
    private boolean flushPending() {
        if (pendingItem != null) {
            if (!tryEmit(pendingItem)) {
                return false;
            }
            pendingItem = null;
        }
        if (pendingWatermark != null) {
            if (!tryEmit(pendingWatermark)) {
                return false;
            }
            pendingWatermark = null;
        }
        if (pendingMarker != null) {
            if (!tryEmit(pendingMarker)) {
                return false;
            }
            pendingMarker = null;
        }
        return true;
    }

    @Override
    public long nextDeadlineNanos() {
        if (pendingItem != null || pendingWatermark != null || pendingMarker != null || nextSequence >= maxItems) {
            return Long.MAX_VALUE;
        }
        if (batches != null) {
            // The next batch's end, if it is released; else the scheduler wakes the worker when it launches it.
            long end = batches.endOf(nextBatch);
            return end <= batches.releasedBefore(Long.MAX_VALUE) ? startNanos + (end - startEpochNanos) : Long.MAX_VALUE;
        }
        // This instance's items are step / slices apart on average.
        long gap = Math.max(1, step / Math.max(1, slices.length));
        long wait = Math.min(MAX_WAKEUP_DELAY_NANOS, Math.max(WAKEUP_SPAN_NANOS, (long) (nanosPerItem * gap * (WAKEUP_BATCH - 1))));
        // Not past this instance's last item; as a double, so an unbounded source does not overflow.
        double untilLast = (maxItems - 1 - nextSequence) * nanosPerItem;
        return dueNanos(nextSequence) + (long) Math.min(wait, untilLast);
    }
}
