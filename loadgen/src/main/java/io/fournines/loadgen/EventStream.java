package io.fournines.loadgen;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One kind of event stream: makes event {@code sequence} of a deterministic sequence, scheduled at
 * {@code scheduledEpochNanos}, as a Kafka record whose value carries that scheduled time (so the
 * consumer measures latency from it) and whose key is what the queries group by. One instance per
 * sender thread: implementations may keep state.
 */
public interface EventStream {

    ProducerRecord<byte[], byte[]> record(String topic, int partition, long sequence, long scheduledEpochNanos);
}
