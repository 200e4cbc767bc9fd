package io.fournines.engine.kafka;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.Counter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Writes each item as a Kafka record, at least once: every item it took is acknowledged by Kafka
 * (the producer's {@code acks}) before {@link #complete()} returns, and a failed send fails the job
 * instead of being dropped. Nothing more: after a failure, records already written stay written, and
 * a job restarted from earlier source offsets writes them again (hence at least once; exactly once
 * needs snapshots and transactions: {@link KafkaTransactionalSinkP}).
 *
 * <p>Non-cooperative: {@code send} blocks while the producer's buffer is full (that is the
 * backpressure) and {@code flush} waits for the broker, so the sink has a thread of its own.
 */
public final class KafkaSinkP<T> extends AbstractProcessor {

    private final Map<String, Object> producerProperties;
    private final Function<? super T, ProducerRecord<byte[], byte[]>> toRecord;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private KafkaProducer<byte[], byte[]> producer;
    private Counter sent;

    KafkaSinkP(Map<String, Object> producerProperties, Function<? super T, ProducerRecord<byte[], byte[]>> toRecord) {
        this.producerProperties = producerProperties;
        this.toRecord = toRecord;
    }

    @Override
    public boolean isCooperative() {
        return false;
    }

    @Override
    protected void init(Context context) {
        Map<String, Object> props = new HashMap<>(producerProperties);
        // Retries without duplicates within one producer session.
        props.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        sent = context.counter("recordsSent");
    }

    @Override
    @SuppressWarnings("unchecked")
    protected boolean tryProcess(int ordinal, Object item) {
        throwIfFailed();
        producer.send(toRecord.apply((T) item), (metadata, exception) -> {
            if (exception != null) {
                failure.compareAndSet(null, exception);
            }
        });
        sent.increment();
        return true;
    }

    /** The input ended: wait until Kafka has acknowledged every record. */
    @Override
    public boolean complete() {
        producer.flush();
        throwIfFailed();
        return true;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
        }
    }

    private void throwIfFailed() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("a Kafka send failed, so the sink cannot promise at least once: " + e, e);
        }
    }
}
