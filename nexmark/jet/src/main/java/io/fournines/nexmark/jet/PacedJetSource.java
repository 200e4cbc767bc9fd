package io.fournines.nexmark.jet;

import com.hazelcast.jet.Traverser;
import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.EventTimeMapper;
import com.hazelcast.jet.core.EventTimePolicy;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.pipeline.Sources;
import com.hazelcast.jet.pipeline.StreamSource;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.PacedSlice;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.model.Event;

import java.util.ArrayDeque;

/**
 * The paced NEXMark generator as a Jet source: {@code threads} cooperative processors on the
 * member, each one {@link PacedSlice}, sharing the cooperative threads with the rest of the job.
 * Each turn emits at most one batch of what is due. A source processor rather than a
 * {@code SourceBuilder} stream, because a bounded input (the tests) must be able to end, which
 * completes the job and flushes its windows; Jet's watermarks come from its own
 * {@link EventTimeMapper} with the policy the pipeline's {@code withTimestamps} gives.
 */
final class PacedJetSource extends AbstractProcessor {
    /** Events per turn: enough to keep up at millions per second, few enough to share the thread. */
    static final int BATCH = 1024;

    private final GeneratorSpec spec;
    private final RunRef run;
    /** Null for per-event queries: items are {@link Timed} events without event time. */
    private final EventTimePolicy<? super Event> policy;
    private final ArrayDeque<Object> due = new ArrayDeque<>(BATCH);
    private PacedSlice slice;
    private EventTimeMapper<Event> eventTime;
    private Traverser<Object> pending;

    private PacedJetSource(GeneratorSpec spec, RunRef run, EventTimePolicy<? super Event> policy) {
        this.spec = spec;
        this.run = run;
        this.policy = policy;
    }

    /** Events, to be timestamped by their {@code dateTime} ({@code withTimestamps}), for windowed queries. */
    static StreamSource<Event> events(GeneratorSpec spec, int threads, RunRef run) {
        return Sources.streamFromProcessorWithWatermarks("nexmark-generator", false,
                policy -> ProcessorMetaSupplier.of(threads, () -> new PacedJetSource(spec, run, policy)));
    }

    /** Events with their exact scheduled time and no event time, for per-event queries. */
    static StreamSource<Timed<Event>> timedEvents(GeneratorSpec spec, int threads, RunRef run) {
        return Sources.streamFromProcessor("nexmark-generator",
                ProcessorMetaSupplier.of(threads, () -> new PacedJetSource(spec, run, null)));
    }

    @Override
    protected void init(Context context) {
        slice = new PacedSlice(spec, run.get(), context.globalProcessorIndex(), context.totalParallelism());
        if (policy != null) {
            eventTime = new EventTimeMapper<>(policy);
            eventTime.addPartitions(1);
        }
    }

    @Override
    public boolean complete() {
        if (due.isEmpty() && pending == null) {
            if (slice.exhausted()) {
                return true;
            }
            slice.emitDue((event, scheduled) -> due.add(policy == null ? new Timed<>(event, scheduled) : event), BATCH);
        }
        while (true) {
            if (pending != null) {
                if (!emitFromTraverser(pending)) {
                    return false;
                }
                pending = null;
            }
            Object next = due.poll();
            if (next == null) {
                return false;
            }
            if (policy == null) {
                if (!tryEmit(next)) {
                    due.addFirst(next);
                    return false;
                }
            } else {
                pending = eventTime.flatMapEvent((Event) next, 0, EventTimeMapper.NO_NATIVE_TIME);
            }
        }
    }
}
