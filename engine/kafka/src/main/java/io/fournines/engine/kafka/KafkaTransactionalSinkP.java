package io.fournines.engine.kafka;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.Counter;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * {@link #snapshotCommitPrepare()} it flushes and records in the snapshot every transaction not
 * committed yet, with its records and sequence ({@link PreparedTransaction}); {@link #snapshotCommitFinish}
 * commits them all, oldest first. Two may wait at once: a finished sink prepares its last
 * transaction while the previous snapshot's commit may still be on its way, and commits both (the
 * engine's final commit). While both producers wait, new items wait too. A job
 * stopped between a snapshot's commit and the sink's own commit left that transaction open (or
 * aborted, when the producer closed): on restore the sink asks Kafka which committed
 * ({@link TransactionMarkers}) and writes the records of each that did not again, in a new
 * transaction with its marker. Every other open transaction is aborted by {@code initTransactions}.
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
    /** Transactions flushed that wait for their snapshot to commit, oldest first: at most one per producer. */
    private final ArrayDeque<Prepared> prepared = new ArrayDeque<>();
    private List<SavedRecord> open = new ArrayList<>();
    /** The sequence of this instance's last prepared transaction; its marker in Kafka. */
    private long sequence;
    private final List<PreparedTransaction> restored = new ArrayList<>();

    /** A transaction flushed by the producer in {@code slot}, not committed yet. */
    private record Prepared(int slot, long sequence, List<SavedRecord> records) {
    }
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

    /**
     * The commit-marker topic created and the broker's transaction and group coordinators ready, so
     * that {@link #init} finds them: on a fresh broker they take seconds, which would fall in the job.
     */
    static void prepare(Map<String, Object> producerProperties, String transactionalIdPrefix) {
        new TransactionMarkers(transactionalIdPrefix).prepare(producerProperties, TIMEOUT);
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
        if (!inTransaction) {
            int next = current;
            if (prepared.stream().anyMatch(p -> p.slot() == next)) {
                return false;  // both producers' transactions wait for their commits
            }
            producers[current].beginTransaction();
            inTransaction = true;
        }
        ProducerRecord<byte[], byte[]> record = toRecord.apply((T) item);
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
     * Phase one: the open transaction, with its commit marker, is flushed to Kafka but not committed;
     * the records of every transaction not committed yet go into the snapshot (an instance with none,
     * one empty slice: a restore still fences its producers); new items go to the other producer.
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
            prepared.add(new Prepared(current, sequence, open));
            open = new ArrayList<>();
            current = 1 - current;
            inTransaction = false;
        }
        List<Map.Entry<BroadcastKey, PreparedTransaction>> slices = new ArrayList<>();
        List<Prepared> waiting = prepared.isEmpty() ? List.of(new Prepared(-1, sequence, List.of())) : List.copyOf(prepared);
        for (Prepared txn : waiting) {
            List<SavedRecord> records = txn.records();
            for (int from = 0; from < records.size() || from == 0; from += PreparedTransaction.SLICE) {
                List<SavedRecord> slice = List.copyOf(records.subList(from, Math.min(records.size(), from + PreparedTransaction.SLICE)));
                slices.add(Map.entry(new BroadcastKey(List.of(transactionalIdPrefix, instance, txn.sequence(), from)),
                        new PreparedTransaction(instance, txn.sequence(), slice)));
            }
        }
        return slices;
    }

    /**
     * Phase two: the snapshot committed, and so does every transaction prepared up to it, oldest
     * first (their markers must commit in order). An abandoned snapshot's transactions keep
     * waiting: the next snapshot lists them, and its commit commits them.
     */
    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (success) {
            for (Prepared txn : prepared) {
                producers[txn.slot()].commitTransaction();
            }
            prepared.clear();
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
     * Every restored instance's producers are fenced (their open transactions aborted), then each
     * restored transaction whose owner's marker shows it never committed is written again, with its
     * marker, in a transaction of its own: per owner in sequence order, as they first were.
     */
    @Override
    public boolean finishSnapshotRestore() {
        // owner -> sequence -> records
        Map<Integer, TreeMap<Long, List<SavedRecord>>> transactions = new TreeMap<>();
        for (PreparedTransaction txn : restored) {
            transactions.computeIfAbsent(txn.instance(), i -> new TreeMap<>()).computeIfAbsent(txn.sequence(), q -> new ArrayList<>())
                        .addAll(txn.records());
        }
        for (int other : transactions.keySet()) {
            if (other != instance) {
                for (int slot = 0; slot < 2; slot++) {
                    initProducer(other, slot).close(TIMEOUT);
                }
            }
        }
        Map<Integer, Long> committed = markers.committed(producerProperties, transactions.keySet(), TIMEOUT);
        KafkaProducer<byte[], byte[]> producer = producers[current];
        transactions.forEach((owner, bySequence) -> bySequence.forEach((seq, records) -> {
            if (records.isEmpty() || committed.getOrDefault(owner, 0L) >= seq) {
                return;
            }
            producer.beginTransaction();
            records.forEach(r -> producer.send(r.toProducerRecord(), (metadata, exception) -> {
                if (exception != null) {
                    failure.compareAndSet(null, exception);
                }
            }));
            producer.sendOffsetsToTransaction(markers.marker(seq), markers.group(owner));
            producer.commitTransaction();
            throwIfFailed();
            rewritten.add(records.size());
        }));
        TreeMap<Long, List<SavedRecord>> own = transactions.get(instance);
        sequence = Math.max(sequence, own == null ? 0L : own.lastKey());
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
