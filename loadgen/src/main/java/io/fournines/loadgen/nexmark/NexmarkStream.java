package io.fournines.loadgen.nexmark;

import io.fournines.loadgen.EventStream;
import io.fournines.nexmark.codec.NexmarkRecords;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.ByteBuffer;

/**
 * The NEXMark sequence of nexmark/core's generator, seed 1, exactly as the member's in-process
 * generator makes it for the same rate and keys: event i is the same event either way. Each record
 * carries {@code paddingBytes} more on the wire ({@link NexmarkRecords}), which the member skips.
 */
public final class NexmarkStream implements EventStream {

    /** The member's in-process seed (MemberRun.SEED): the same events whichever way they arrive. */
    public static final long SEED = 1;

    /** Room for the schedule and any generated event. */
    private static final int EVENT_BYTES = 64 * 1024;

    private final NexmarkGenerator generator;
    private final int paddingBytes;
    private final ByteBuffer scratch;

    public NexmarkStream(double rate, long keys, int paddingBytes) {
        this.generator = new NexmarkGenerator(GeneratorConfig.defaults(SEED).withRate(Math.max(1, Math.round(rate))).withKeys(keys));
        this.paddingBytes = paddingBytes;
        this.scratch = ByteBuffer.allocate(EVENT_BYTES + paddingBytes);
    }

    @Override
    public ProducerRecord<byte[], byte[]> record(String topic, int partition, long sequence, long scheduledEpochNanos) {
        Event event = generator.event(sequence, Math.floorDiv(scheduledEpochNanos, 1_000_000L));
        return new ProducerRecord<>(topic, partition, null, NexmarkRecords.key(event), NexmarkRecords.value(event, scheduledEpochNanos, paddingBytes, scratch));
    }
}
