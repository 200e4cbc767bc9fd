package io.fournines.engine.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns a Kafka record's raw bytes into the source's item. A record it cannot decode is malformed:
 * throw any RuntimeException, and the source counts it and sets it aside with the exception's
 * message as the reason, instead of failing the job or dropping it silently.
 */
@FunctionalInterface
public interface RecordDecoder<T> {

    T decode(ConsumerRecord<byte[], byte[]> record);
}
