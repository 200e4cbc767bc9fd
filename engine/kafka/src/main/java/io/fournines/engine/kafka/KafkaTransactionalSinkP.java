package io.fournines.engine.kafka;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Counter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Writes each item as a Kafka record inside a transaction that commits when the job's snapshot
 * commits: exactly once end to end for consumers that read with {@code isolation.level=read_committed}.
 *
 * <p>Each instance owns two transactional producers, {@code <prefix>-<global index>-0} and
 * {@code -1} (stable across restarts, so a restarted job fences its predecessor's zombies), and
 * alternates between them: while the transaction of snapshot <i>n</i> waits for the snapshot to
 * commit, the items after it go into the other producer's transaction. In
 * {@link #snapshotCommitPrepare()} it flushes, records the transaction's records and sequence in the
 * snapshot ({@link PreparedTransaction}), and in {@link #snapshotCommitFinish} commits it. A job
 * stopped between a snapshot's commit and the sink's own commit left that transaction open (or
 * aborted, when the producer closed): on restore the sink asks Kafka whether it committed
 * ({@link TransactionMarkers}) and, if not, writes its records again in a new transaction. Every other
 * open transaction is aborted by {@code initTransactions}.
 *
 * <p>Needs a job with snapshots (a guarantee other than NONE): without them nothing commits.
 * Exactly once holds when the job restores the latest committed snapshot. Non-cooperative: sends
 * block while the producer's buffer is full, and flush and commit wait for the broker.
 */
public final class KafkaTransactionalSinkP<T> extends AbstractProcessor {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> producerProperties;
    private final String transactionalIdPrefix;
    private final Function<? super T, ProducerRecord<byte[], byte[]>> toRecord;
    private final TransactionMarkers markers;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    @SuppressWarnings("unchecked")
    private final KafkaProducer<byte[], byte[]>[] producers = new KafkaProducer[2];
    /** The producer that takes new items, and whether its transaction has begun. */
    private int current;
    private boolean inTransaction;
    /** The producer whose transaction waits for its snapshot to commit; -1 if none. */
    private int prepared = -1;
    private List<SavedRecord> open = new ArrayList<>();
    /** The sequence of this instance's last prepared transaction; its marker in Kafka. */
    private long sequence;
    private final List<PreparedTransaction> restored = new ArrayList<>();
    private int instance;
    private int instances;
    private Counter sent;
    private Counter rewritten;

    KafkaTransactionalSinkP(Map<String, Object> producerProperties, String transactionalIdPrefix,
                            Function<? super T, ProducerRecord<byte[], byte[]>> toRecord) {
        this.producerProperties = producerProperties;
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.toRecord = toRecord;
        this.markers = new TransactionMarkers(transactionalIdPrefix);
    }

    @Override
    public boolean isCooperative() {
        return false;
    }

    @Override
    protected void init(Context context) {
        instance = context.memberIndex() * context.parallelism() + context.processorIndex();
        instances = context.memberCount() * context.parallelism();
        sent = context.counter("recordsSent");
        rewritten = context.counter("recordsRewritten");
        for (int i = 0; i < 2; i++) {
            // Aborts whatever a previous run of this instance left open.
            producers[i] = initProducer(instance, i);
        }
        markers.ensureTopic(producerProperties, TIMEOUT);
        sequence = markers.committed(producerProperties, List.of(instance), TIMEOUT).getOrDefault(instance, 0L);
    }

    private KafkaProducer<byte[], byte[]> initProducer(int owner, int slot) {
        Map<String, Object> props = new HashMap<>(producerProperties);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalIdPrefix + "-" + owner + "-" + slot);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected boolean tryProcess(int ordinal, Object item) {
        throwIfFailed();
        ProducerRecord<byte[], byte[]> record = toRecord.apply((T) item);
        if (!inTransaction) {
            producers[current].beginTransaction();
            inTransaction = true;
        }
        producers[current].send(record, (metadata, exception) -> {
            if (exception != null) {
                failure.compareAndSet(null, exception);
            }
        });
        open.add(SavedRecord.of(record));
        sent.increment();
        return true;
    }

    /**
     * Phase one: the open transaction, with its commit marker, is flushed to Kafka but not committed,
     * and its records go into the snapshot; new items go to the other producer.
     */
    @Override
    public boolean snapshotCommitPrepare() {
        return emitToSnapshot(this::prepareOpenTransaction);
    }

    private List<Map.Entry<BroadcastKey, PreparedTransaction>> prepareOpenTransaction() {
        if (inTransaction) {
            sequence++;
            producers[current].sendOffsetsToTransaction(markers.marker(sequence), markers.group(instance));
            producers[current].flush();
            throwIfFailed();
            prepared = current;
            current = 1 - current;
            inTransaction = false;
        }
        List<Map.Entry<BroadcastKey, PreparedTransaction>> slices = new ArrayList<>();
        for (int from = 0; from < open.size() || from == 0; from += PreparedTransaction.SLICE) {
            List<SavedRecord> slice = List.copyOf(open.subList(from, Math.min(open.size(), from + PreparedTransaction.SLICE)));
            slices.add(Map.entry(new BroadcastKey(List.of(transactionalIdPrefix, instance, slices.size())),
                    new PreparedTransaction(instance, sequence, slice)));
        }
        open = new ArrayList<>();
        return slices;
    }

    /** Phase two: the snapshot committed (or was abandoned), and so does the prepared transaction. */
    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (prepared >= 0) {
            if (success) {
                producers[prepared].commitTransaction();
            } else {
                producers[prepared].abortTransaction();
            }
            prepared = -1;
        }
        return true;
    }

    /** Keeps the prepared transactions of the instances this one stands for now (all of them when the parallelism is unchanged: its own). */
    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        if (value instanceof PreparedTransaction txn && ((BroadcastKey) key).id() instanceof List<?> id
                && id.get(0).equals(transactionalIdPrefix) && txn.instance() % instances == instance) {
            restored.add(txn);
        }
    }

    /**
     * Every restored transaction's producers are fenced (its open transaction aborted), then each
     * one whose marker shows it never committed is written again, with its marker, in one transaction.
     */
    @Override
    public boolean finishSnapshotRestore() {
        Map<Integer, Long> restoredSequence = new HashMap<>();
        Map<Integer, List<SavedRecord>> records = new HashMap<>();
        for (PreparedTransaction txn : restored) {
            restoredSequence.put(txn.instance(), txn.sequence());
            records.computeIfAbsent(txn.instance(), i -> new ArrayList<>()).addAll(txn.records());
        }
        for (int other : restoredSequence.keySet()) {
            if (other != instance) {
                for (int slot = 0; slot < 2; slot++) {
                    initProducer(other, slot).close(TIMEOUT);
                }
            }
        }
        Map<Integer, Long> committed = markers.committed(producerProperties, restoredSequence.keySet(), TIMEOUT);
        KafkaProducer<byte[], byte[]> producer = producers[current];
        restoredSequence.forEach((owner, seq) -> {
            if (records.get(owner).isEmpty() || committed.getOrDefault(owner, 0L) >= seq) {
                return;
            }
            producer.beginTransaction();
            records.get(owner).forEach(r -> producer.send(r.toProducerRecord(), (metadata, exception) -> {
                if (exception != null) {
                    failure.compareAndSet(null, exception);
                }
            }));
            producer.sendOffsetsToTransaction(markers.marker(seq), markers.group(owner));
            producer.commitTransaction();
            throwIfFailed();
            rewritten.add(records.get(owner).size());
        });
        sequence = Math.max(sequence, restoredSequence.getOrDefault(instance, 0L));
        restored.clear();
        return true;
    }

    @Override
    public void close() {
        for (KafkaProducer<byte[], byte[]> producer : producers) {
            if (producer != null) {
                // A graceful close aborts the open transactions; a prepared one that belongs to a
                // committed snapshot is written again on restore.
                producer.close(TIMEOUT);
            }
        }
    }

    private void throwIfFailed() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("a Kafka send failed in a transaction of '" + transactionalIdPrefix + "': " + e, e);
        }
    }
}
