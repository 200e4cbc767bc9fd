package io.fournines.engine.kafka;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BatchMarker;
import io.fournines.engine.core.BroadcastKey;
import io.fournines.engine.core.ClassAllowList;
import io.fournines.engine.core.EpochClock;
import io.fournines.engine.core.Counter;
import io.fournines.engine.core.SourceBatches;
import io.fournines.engine.core.Watermark;
import io.fournines.engine.processor.WatermarkPolicy;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A cooperative Kafka source instance: reads its share of the topic's partitions
 * ({@link PartitionAssignment}) with {@code consumer.poll(Duration.ZERO)} on the worker thread,
 * which only sends fetches and takes what has already arrived, so it never waits for the network
 * (measured: see engine/MEASURED.md, and the {@code pollsOver1ms} metric of every run). Emits
 * per-partition watermarks ({@link PartitionWatermarks}), keeps the next offset of every partition
 * ({@link #consumedOffsets()}, for snapshots) and can start from given offsets. A record the decoder
 * rejects is counted ({@code malformedRecords}) and handed to the {@link DeadLetters}. On a bounded
 * topic ({@link KafkaSourceOptions#endingAt}) each partition ends at its end-of-stream record, and the
 * instance ends once all of its partitions have (at once if it has none).
 *
 * <p>In a snapshot it saves the next offset of each of its partitions as a {@link BroadcastKey}
 * entry keyed by the {@link TopicPartition}; on restore every instance sees them all and seeks the
 * partitions it is assigned now, so the offsets follow their partition when the job's parallelism
 * or membership changes. Watermark state is not saved: each partition's watermark restarts from the
 * first record read after the restore.
 *
 * <p>No consumer group: partitions are assigned, not subscribed, and offsets are never committed to
 * Kafka; where to resume is the caller's (the snapshot's) business.
 *
 * <p>In micro-batch and group execution it cuts batches by arrival, as Spark's Kafka stream takes the
 * offsets a batch's time has reached: batch n holds what its polls brought before the batch's end,
 * emitted once the scheduler released the batch ({@link SourceBatches}), then the watermark and the
 * batch's marker. It keeps polling while it waits, up to {@link #MAX_HELD_RECORDS}; beyond that the
 * records wait in Kafka and belong to a later batch. Held records are not consumed yet: a snapshot
 * holds the offsets of what was emitted, so a restore reads the rest again.
 */
public final class KafkaSourceP<T> extends AbstractProcessor {

    static {
        allowSnapshotClasses();
    }

    /** Its offsets are saved by partition: members must accept the partition's class. */
    static void allowSnapshotClasses() {
        ClassAllowList.allow(TopicPartition.class.getName());
    }

    /** Micro-batch and group execution: records polled but not emitted, at most (a few batches' worth). */
    static final int MAX_HELD_RECORDS = 1 << 18;

    /** The records of one poll, held until their batch is released: polled at epoch ns {@code epochNanos}. */
    private record Polled(long epochNanos, Iterator<ConsumerRecord<byte[], byte[]>> records, int count) {
    }

    private final Map<String, Object> consumerProperties;
    private final String topic;
    private final RecordDecoder<T> decoder;
    private final WatermarkPolicy watermarkPolicy;
    private final KafkaSourceOptions options;

    private KafkaConsumer<byte[], byte[]> consumer;
    private TopicPartition[] partitions;
    /** Partition number -> its slot in {@link #partitions}. */
    private final Map<Integer, Integer> slotOf = new HashMap<>();
    /** Next offset to read, by slot; -1 until the first record (the start is then Kafka's reset policy). */
    private long[] nextOffsets;
    /** By slot: the partition reached its end-of-stream record. */
    private boolean[] ended;
    private int endedCount;
    private PartitionWatermarks watermarks;
    private Iterator<ConsumerRecord<byte[], byte[]>> batch;
    private Object pendingItem;
    /** The slot and next offset of the pending item: its offset counts as consumed once it is emitted. */
    private int pendingSlot;
    private long pendingNextOffset;
    private long pendingWatermark = PartitionWatermarks.NONE;
    private long lastPollNanos;
    private int instance;
    /** Null in continuous execution. */
    private SourceBatches batches;
    private final ArrayDeque<Polled> held = new ArrayDeque<>();
    private int heldRecords;
    private long nextBatch;
    private BatchMarker pendingMarker;
    private EpochClock clock;

    private Counter malformed;
    private Counter polls;
    private Counter pollNanos;
    private Counter slowPolls;

    KafkaSourceP(Map<String, Object> consumerProperties, String topic, RecordDecoder<T> decoder, WatermarkPolicy watermarkPolicy,
                 KafkaSourceOptions options) {
        this.consumerProperties = consumerProperties;
        this.topic = topic;
        this.decoder = decoder;
        this.watermarkPolicy = watermarkPolicy;
        this.options = options;
    }

    @Override
    protected void init(Context context) {
        malformed = context.counter("malformedRecords");
        polls = context.counter("polls");
        pollNanos = context.counter("pollNanos");
        slowPolls = context.counter("pollsOver1ms");
        instance = context.processorIndex();
        batches = context.sourceBatches();
        clock = new EpochClock();
        Map<String, Object> props = new HashMap<>(consumerProperties);
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "fournines-" + context.vertexName() + "-" + instance);
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        // Once, before the job runs: the only call that waits on the network.
        List<PartitionInfo> infos = KafkaSources.partitionsOf(consumer, topic, options.metadataTimeout());
        // Instances over the whole cluster, in member order: after a restart on fewer members, fewer of them share the topic.
        int[] mine = PartitionAssignment.partitionsOf(context.memberIndex() * context.parallelism() + instance,
                context.memberCount() * context.parallelism(), infos.size());
        partitions = new TopicPartition[mine.length];
        nextOffsets = new long[mine.length];
        ended = new boolean[mine.length];
        for (int i = 0; i < mine.length; i++) {
            partitions[i] = new TopicPartition(topic, mine[i]);
            slotOf.put(mine[i], i);
            nextOffsets[i] = -1;
        }
        consumer.assign(List.of(partitions));
        for (int i = 0; i < mine.length; i++) {
            Long start = options.startOffsets().get(mine[i]);
            if (start != null) {
                consumer.seek(partitions[i], start);
                nextOffsets[i] = start;
            }
        }
        long now = System.nanoTime();
        watermarks = watermarkPolicy == null ? null : new PartitionWatermarks(watermarkPolicy, mine.length, options.partitionIdleNanos(), now);
        lastPollNanos = now;
    }

    @Override
    public boolean cutsBatches() {
        return true;
    }

    @Override
    public boolean complete() {
        if (!flushPending()) {
            return false;
        }
        if (batches != null) {
            return completeInBatches();
        }
        if (batch == null || !batch.hasNext()) {
            batch = poll().iterator();
        }
        if (!emitRecords(batch, lastPollNanos)) {
            return false;
        }
        if (watermarks != null) {
            // currentLag needs no network call: the lag the last fetch saw, empty before the first.
            pendingWatermark = watermarks.advance(System.nanoTime(), i -> consumer.currentLag(partitions[i]).orElse(1) > 0);
            if (!flushPending()) {
                return false;
            }
        }
        return allEnded();
    }

    /**
     * Polls while fewer than {@link #MAX_HELD_RECORDS} are held; then, for every released batch, the
     * records polled before its end, its watermark and its marker, until the outbox refuses.
     */
    private boolean completeInBatches() {
        if (heldRecords < MAX_HELD_RECORDS) {
            ConsumerRecords<byte[], byte[]> records = poll();
            if (!records.isEmpty()) {
                held.add(new Polled(clock.epochNanos(lastPollNanos), records.iterator(), records.count()));
                heldRecords += records.count();
            }
        }
        long released = batches.releasedBefore(clock.nowEpochNanos());
        for (long end; (end = batches.endOf(nextBatch)) <= released; ) {
            for (Polled first; (first = held.peek()) != null && first.epochNanos() < end; ) {
                if (!emitRecords(first.records(), System.nanoTime())) {
                    return false;
                }
                held.poll();
                heldRecords -= first.count();
            }
            if (watermarks != null) {
                // Held records count as waiting: their partition is not idle.
                pendingWatermark = watermarks.advance(System.nanoTime(), i -> !held.isEmpty() || consumer.currentLag(partitions[i]).orElse(1) > 0);
            }
            pendingMarker = new BatchMarker(nextBatch++);
            if (!flushPending()) {
                return false;
            }
        }
        return allEnded();
    }

    private boolean allEnded() {
        return options.endOfStream() != null && endedCount == partitions.length;
    }

    /** Decodes and emits {@code records} (read at {@code now}) until the outbox refuses one (false) or they run out. */
    private boolean emitRecords(Iterator<ConsumerRecord<byte[], byte[]>> records, long now) {
        while (records.hasNext()) {
            ConsumerRecord<byte[], byte[]> record = records.next();
            int slot = slotOf.get(record.partition());
            if (ended[slot]) {
                continue;  // fetched with its partition's end, before the partition was paused
            }
            if (options.endOfStream() != null && options.endOfStream().test(record)) {
                endPartition(slot, record.offset());
                continue;
            }
            T item;
            try {
                item = decoder.decode(record);
            } catch (RuntimeException e) {
                malformed.increment();
                options.deadLetters().setAside(record, e.toString());
                nextOffsets[slot] = record.offset() + 1;
                continue;
            }
            if (watermarks != null) {
                watermarks.observe(slot, item, now);
            }
            pendingItem = item;
            pendingSlot = slot;
            pendingNextOffset = record.offset() + 1;
            if (!flushPending()) {
                return false;
            }
        }
        return true;
    }

    /**
     * What has arrived, without waiting. An instance without partitions (more instances than
     * partitions) never polls, which Kafka refuses without an assignment: it has nothing to read, so
     * it says idle once and a bounded one ends at once, as one whose partitions all ended.
     */
    private ConsumerRecords<byte[], byte[]> poll() {
        long start = System.nanoTime();
        lastPollNanos = start;
        if (partitions.length == 0) {
            return ConsumerRecords.empty();
        }
        ConsumerRecords<byte[], byte[]> fetched = consumer.poll(Duration.ZERO);
        long end = System.nanoTime();
        lastPollNanos = end;
        polls.increment();
        pollNanos.add(end - start);
        if (end - start > 1_000_000) {
            slowPolls.increment();
        }
        return fetched;
    }

    /**
     * The partition in {@code slot} reached its end-of-stream record at {@code offset}. Its position
     * stays there, so a snapshot keeps it and a restored source reads the record again and ends too.
     */
    private void endPartition(int slot, long offset) {
        nextOffsets[slot] = offset;
        ended[slot] = true;
        endedCount++;
        consumer.pause(List.of(partitions[slot]));
        if (watermarks != null) {
            watermarks.ended(slot);
        }
    }

    private boolean flushPending() {
        if (pendingItem != null) {
            if (!tryEmit(pendingItem)) {
                return false;
            }
            pendingItem = null;
            nextOffsets[pendingSlot] = pendingNextOffset;
        }
        if (pendingWatermark != PartitionWatermarks.NONE) {
            if (!tryEmit(new Watermark(pendingWatermark))) {
                return false;
            }
            pendingWatermark = PartitionWatermarks.NONE;
        }
        if (pendingMarker != null) {
            if (!tryEmit(pendingMarker)) {
                return false;
            }
            pendingMarker = null;
        }
        return true;
    }

    /** An idle worker wakes to poll again after {@code idlePollInterval}: Kafka cannot signal it. */
    @Override
    public long nextDeadlineNanos() {
        return lastPollNanos + options.idlePollInterval().toNanos();
    }

    /** One entry per partition that has a position: records before it are in the snapshot's state. */
    @Override
    public boolean saveToSnapshot() {
        return emitToSnapshot(() -> {
            List<Map.Entry<BroadcastKey, Long>> entries = new ArrayList<>();
            for (int i = 0; i < partitions.length; i++) {
                if (nextOffsets[i] >= 0) {
                    entries.add(Map.entry(new BroadcastKey(partitions[i]), nextOffsets[i]));
                }
            }
            return entries;
        });
    }

    @Override
    protected void restoreFromSnapshot(Object key, Object value) {
        if (((BroadcastKey) key).id() instanceof TopicPartition tp && tp.topic().equals(topic)) {
            Integer slot = slotOf.get(tp.partition());
            if (slot != null) {
                long offset = (Long) value;
                consumer.seek(partitions[slot], offset);
                nextOffsets[slot] = offset;
            }
        }
    }

    /**
     * The next offset to read for each of this instance's partitions that has delivered a record or
     * was given a start offset: what a snapshot stores, and what {@link KafkaSourceOptions#withStartOffsets}
     * takes to resume. Read it from the processor's own thread (or after the job ended).
     */
    public Map<Integer, Long> consumedOffsets() {
        Map<Integer, Long> offsets = new HashMap<>();
        if (partitions == null) {
            return offsets;
        }
        for (int i = 0; i < partitions.length; i++) {
            if (nextOffsets[i] >= 0) {
                offsets.put(partitions[i].partition(), nextOffsets[i]);
            }
        }
        return offsets;
    }

    @Override
    public void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(1));
        }
        options.offsetsListener().accept(instance, consumedOffsets());
    }
}
