package io.fournines.peers.jet;

import com.hazelcast.jet.pipeline.SourceBuilder;
import com.hazelcast.jet.pipeline.StreamSource;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.PacedSlice;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.model.Event;

/**
 * The paced NEXMark generator as a Jet source, {@code threads} instances on the member, each one
 * {@link PacedSlice}. Jet calls a cooperative source's fill function in turn with the other
 * tasklets on the same threads; each call emits what is due, at most one batch.
 */
final class PacedJetSource {
    /** Events per fill call: enough to keep up at millions per second, few enough to share the thread. */
    static final int BATCH = 1024;

    private PacedJetSource() {
    }

    /** Events timestamped with their {@code dateTime}, for windowed queries. */
    static StreamSource<Event> events(GeneratorSpec spec, int threads, RunRef run) {
        return SourceBuilder.timestampedStream("nexmark-generator",
                        ctx -> new PacedSlice(spec, run.get(), ctx.globalProcessorIndex(), ctx.totalParallelism()))
                .<Event>fillBufferFn((slice, buffer) -> {
                    slice.emitDue((event, scheduled) -> buffer.add(event, event.dateTime()), BATCH);
                    if (slice.exhausted()) {
                        buffer.close();
                    }
                })
                .distributed(threads)
                .build();
    }

    /** Events with their exact scheduled time and no event time, for per-event queries. */
    static StreamSource<Timed<Event>> timedEvents(GeneratorSpec spec, int threads, RunRef run) {
        return SourceBuilder.stream("nexmark-generator",
                        ctx -> new PacedSlice(spec, run.get(), ctx.globalProcessorIndex(), ctx.totalParallelism()))
                .<Timed<Event>>fillBufferFn((slice, buffer) -> {
                    slice.emitDue((event, scheduled) -> buffer.add(new Timed<>(event, scheduled)), BATCH);
                    if (slice.exhausted()) {
                        buffer.close();
                    }
                })
                .distributed(threads)
                .build();
    }
}
