package io.fournines.engine.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * How a Kafka source reads, beyond the consumer's own properties.
 *
 * @param startOffsets     partition -> first offset to read; partitions not in it start where the
 *                         consumer's {@code auto.offset.reset} says (earliest unless set)
 * @param idleTimeout      a partition with no records for this long stops holding the watermark back
 * @param idlePollInterval how often an idle worker wakes to poll again (Kafka cannot wake it)
 * @param metadataTimeout  how long init waits for the topic's partitions
 * @param deadLetters      where malformed records go
 * @param offsetsListener  told each instance's final offsets ({@link KafkaSourceP#consumedOffsets()}) when it closes
 * @param endOfStream      null for an endless topic; else the records that end their partition: the
 *                         source ends once each of its partitions reached one (a bounded job)
 */
public record KafkaSourceOptions(Map<Integer, Long> startOffsets, Duration idleTimeout, Duration idlePollInterval, Duration metadataTimeout,
                                 DeadLetters deadLetters, BiConsumer<Integer, Map<Integer, Long>> offsetsListener,
                                 Predicate<ConsumerRecord<byte[], byte[]>> endOfStream) {

    /** Jet's default partition idle timeout is 60 s; ours is shorter, as a benchmark's windows wait for it. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLE_POLL_INTERVAL = Duration.ofMillis(1);
    public static final Duration DEFAULT_METADATA_TIMEOUT = Duration.ofSeconds(30);

    public KafkaSourceOptions {
        startOffsets = Map.copyOf(startOffsets);
        if (idleTimeout.isNegative() || idleTimeout.isZero() || idlePollInterval.isNegative() || idlePollInterval.isZero()) {
            throw new IllegalArgumentException("idleTimeout and idlePollInterval must be > 0, got " + idleTimeout + " and " + idlePollInterval);
        }
    }

    /** Single member, from the earliest offsets, malformed records into {@code deadLetters}. */
    public static KafkaSourceOptions defaults(DeadLetters deadLetters) {
        return new KafkaSourceOptions(Map.of(), DEFAULT_IDLE_TIMEOUT, DEFAULT_IDLE_POLL_INTERVAL, DEFAULT_METADATA_TIMEOUT, deadLetters,
                (instance, offsets) -> { }, null);
    }

    /**
     * How long a partition may deliver nothing before it stops holding the watermark back: never on a
     * bounded topic, where every partition comes to its end record anyway; judged idle meanwhile (say
     * before its first records reach a slow reader) its records would be late, and lost to the windows.
     */
    long partitionIdleNanos() {
        return endOfStream == null ? idleTimeout.toNanos() : Long.MAX_VALUE;
    }

    public KafkaSourceOptions withStartOffsets(Map<Integer, Long> offsets) {
        return new KafkaSourceOptions(offsets, idleTimeout, idlePollInterval, metadataTimeout, deadLetters, offsetsListener, endOfStream);
    }

    public KafkaSourceOptions withOffsetsListener(BiConsumer<Integer, Map<Integer, Long>> listener) {
        return new KafkaSourceOptions(startOffsets, idleTimeout, idlePollInterval, metadataTimeout, deadLetters, listener, endOfStream);
    }

    /**
     * A bounded topic: a partition ends at its first record {@code marker} accepts, which is not
     * decoded. Its partitions are never judged idle ({@link #partitionIdleNanos}).
     */
    public KafkaSourceOptions endingAt(Predicate<ConsumerRecord<byte[], byte[]>> marker) {
        return new KafkaSourceOptions(startOffsets, idleTimeout, idlePollInterval, metadataTimeout, deadLetters, offsetsListener, marker);
    }
}
