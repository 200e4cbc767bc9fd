package io.fournines.engine.kafka;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.io.Serializable;

/**
 * A record the transactional sink sent, as its snapshot keeps it: enough to send it again when the
 * transaction it was in never committed. Headers are not kept (the sink's records have none).
 */
record SavedRecord(String topic, Integer partition, Long timestamp, byte[] key, byte[] value) implements Serializable {

    static SavedRecord of(ProducerRecord<byte[], byte[]> record) {
        if (record.headers().toArray().length > 0) {
            throw new IllegalArgumentException("the transactional Kafka sink does not keep headers, but a record to topic '"
                    + record.topic() + "' has some");
        }
        return new SavedRecord(record.topic(), record.partition(), record.timestamp(), record.key(), record.value());
    }

    ProducerRecord<byte[], byte[]> toProducerRecord() {
        return new ProducerRecord<>(topic, partition, timestamp, key, value);
    }
}
