package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Watermark;

import java.time.Instant;
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
            long[] now = clockPair();
            start.origin.set(new long[] {now[0] + (epochNanos - now[1]), epochNanos});
            return start;
        }

        /** {nanoTime at start, epoch nanos at the same instant} */
        long[] get() {
            if (origin.get() == null) {
                origin.compareAndSet(null, clockPair());
            }
            return origin.get();
        }

        /** The origin of a schedule that started at {@code startEpochNanos}, in this JVM's nanoTime. */
        static long[] resumedAt(long startEpochNanos) {
            long[] now = clockPair();
            return new long[] {now[0] - (now[1] - startEpochNanos), startEpochNanos};
        }

        /**
         * Reads both clocks as close together as it can: the tightest of a few nanoTime brackets
         * around a wall-clock read. A skew between the two would shift every latency this source
         * feeds (the first wall-clock read of a JVM alone can take milliseconds).
         */
        private static long[] clockPair() {
            long[] best = null;
            long bestWidth = Long.MAX_VALUE;
            for (int attempt = 0; attempt < 10; attempt++) {
                long before = System.nanoTime();
                Instant now = Instant.now();
                long after = System.nanoTime();
                if (after - before < bestWidth) {
                    bestWidth = after - before;
                    best = new long[] {before + (after - before) / 2, now.getEpochSecond() * 1_000_000_000L + now.getNano()};
                }
            }
            return best;
        }
    }

    /**
     * At low rates an idle worker is woken for every this many items, not for each one: on a VM a
     * wake-up costs 20-40 us of CPU, so at 1 000 items/s waking per item would cost 2-4 % of a core.
     * Items that wait keep their scheduled time, so the wait shows in latency.
     */
    static final int WAKEUP_BATCH = 4;
    /** ... only when this instance's items are at least this far apart: faster sources wake per item. */
    static final long MIN_GAP_FOR_WAKEUP_BATCH_NANOS = 200_000;
    /** ... and no item waits longer than this for a wake-up. */
    static final long MAX_WAKEUP_DELAY_NANOS = 10_000_000;

    private final double nanosPerItem;
    private final long maxItems;
    private final ItemFactory<T> factory;
    private final WatermarkGenerator watermarks;
    private final SharedStart sharedStart;
    private final ScheduleMonitor monitor;

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
    protected void init(Context context) {
        this.context = context;
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
        long emitted = 0;
        try {
            while (nextSequence < maxItems && dueNanos(nextSequence) <= now) {
                long due = dueNanos(nextSequence);
                T item = factory.create(nextSequence, startEpochNanos + (due - startNanos));
                pendingSlice = current;
                sliceNext[current] += step;
                selectNext();
                emitted++;
                pendingItem = item;
                if (watermarks != null) {
                    long wm = watermarks.observe(item);
                    pendingWatermark = wm == WatermarkGenerator.NONE ? null : new Watermark(wm);
                }
                if (!flushPending()) {
                    return false;
                }
            }
        } finally {
            monitor.addEmitted(emitted);
            monitor.reportLag(index, nextSequence < maxItems ? Math.max(0, now - dueNanos(nextSequence)) : 0);
        }
        return nextSequence >= maxItems;
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

    /** Emits the item and then the watermark it produced; false while either is refused. */
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
        return true;
    }

    @Override
    public long nextDeadlineNanos() {
        if (pendingItem != null || pendingWatermark != null || nextSequence >= maxItems) {
            return Long.MAX_VALUE;
        }
        // This instance's items are step / slices apart on average.
        long gap = Math.max(1, step / Math.max(1, slices.length));
        if (nanosPerItem * gap < MIN_GAP_FOR_WAKEUP_BATCH_NANOS) {
            return dueNanos(nextSequence);
        }
        long lastOfBatch = Math.min(nextSequence + (WAKEUP_BATCH - 1L) * gap, maxItems - 1);
        return Math.min(dueNanos(lastOfBatch), dueNanos(nextSequence) + MAX_WAKEUP_DELAY_NANOS);
    }
}
