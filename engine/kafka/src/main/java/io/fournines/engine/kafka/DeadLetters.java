package io.fournines.engine.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Where a source sets aside the records it could not decode, with the reason; shared by all the
 * source's instances, so implementations are thread-safe. Called rarely (malformed input is the
 * exception), from a cooperative worker: it must be quick.
 */
public interface DeadLetters extends AutoCloseable {

    void setAside(ConsumerRecord<byte[], byte[]> record, String reason);

    @Override
    void close();
}
