package io.fournines.member;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.engine.kafka.DeadLetterFile;
import io.fournines.engine.kafka.KafkaSourceOptions;
import io.fournines.engine.kafka.KafkaSources;
import io.fournines.engine.kafka.RecordDecoder;
import io.fournines.engine.kafka.SnapshotOffsets;
import io.fournines.engine.core.ProcessingGuarantee;
import io.fournines.engine.snapshot.SnapshotStore;
import org.apache.kafka.common.TopicPartition;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.StreamSource;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.loadgen.nexmark.NexmarkRecords;
import io.fournines.loadgen.trades.Trade;
import io.fournines.loadgen.trades.TradeCodec;
import io.fournines.nexmark.latency.EpochClock;
import io.fournines.nexmark.latency.LatencyLog;
import io.fournines.nexmark.latency.LatencyLogs;
import io.fournines.nexmark.latency.WindowLatencyRecorder;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.NexmarkQuery;
import io.fournines.nexmark.query.PerEventQuery;
import io.fournines.nexmark.query.Queries;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * The member's load from Kafka ({@code load.source: kafka}): the query reads the topic the load
 * generator (loadgen/) fills instead of the in-process generator. Every record carries its event's
 * scheduled time, so latency is measured exactly as in-process: per event from the scheduled time,
 * per window from the window's end. Malformed records are counted and set aside in
 * {@code dead-letters.jsonl}. As "behind", it reports how far the newest consumed event is behind
 * its schedule: the generator's own lag is in its loadgen.json.
 */
final class KafkaLoad implements LoadProgress, AutoCloseable {

    /** Where the runner's Kafka is, and the run's topic. */
    record Endpoint(String bootstrap, String topic) {
    }

    static final String DEAD_LETTERS = "dead-letters.jsonl";

    private final Scenario scenario;
    private final Endpoint endpoint;
    private final DeadLetterFile deadLetters;
    private final LongAdder consumed = new LongAdder();
    private final LongAccumulator newestScheduled = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private EpochClock clock;

    KafkaLoad(Scenario scenario, Endpoint endpoint, Path dir) throws IOException {
        this.scenario = scenario;
        this.endpoint = endpoint;
        this.deadLetters = new DeadLetterFile(dir.resolve(DEAD_LETTERS));
    }

    /** Source, query and latency sink; returns the window recorder, or null for a per-event query. */
    WindowLatencyRecorder attach(Pipeline pipeline, LatencyLog latency, LatencyLogs logs, Path dir, Predicate<Object> countProcessed)
            throws IOException {
        clock = logs.clock();
        if (scenario.query().equals(TradesPerSecond.NAME)) {
            StreamStage<Trade> trades = pipeline.readFrom(source(record -> {
                Trade trade = TradeCodec.decode(record.value());
                noteScheduled(trade.scheduledEpochNanos());
                return trade;
            })).withTimestamps(Trade::timeMillis, 0);
            WindowLatencyRecorder windows = windowRecorder(latency, logs, dir);
            TradesPerSecond.attach(trades.filter(countProcessed), scenario.parameters().windowMs(), scenario.parameters().slideMs())
                           .writeTo(MemberRun.windowLatencySink(windows, scenario.threads()));
            return windows;
        }
        NexmarkQuery<?> query = Queries.create(scenario.query(), pipeline, scenario.parameters());
        if (query instanceof PerEventQuery<?> perEvent) {
            StreamStage<Scheduled<Event>> events = pipeline.readFrom(source(record -> {
                NexmarkRecords.ScheduledEvent e = decodeNexmark(record.value());
                return new Scheduled<>(e.event(), e.scheduledEpochNanos());
            })).withoutTimestamps();
            MemberRun.attachScheduled(perEvent, events.filter(countProcessed))
                     .writeTo(Sinks.fromProcessor("latency", () -> new PerEventLatencySinkP(latency, logs.clock())));
            return null;
        }
        StreamStage<Event> events = pipeline.readFrom(source(record -> decodeNexmark(record.value()).event())).withTimestamps(Event::dateTime, 0);
        WindowLatencyRecorder windows = windowRecorder(latency, logs, dir);
        query.attach(events.filter(countProcessed)).writeTo(MemberRun.windowLatencySink(windows, scenario.threads()));
        return windows;
    }

    private <T> StreamSource<T> source(RecordDecoder<T> decoder) {
        RecordDecoder<T> counting = record -> {
            T item = decoder.decode(record);
            consumed.increment();
            return item;
        };
        return KafkaSources.kafka(Map.of("bootstrap.servers", endpoint.bootstrap()), endpoint.topic(), counting,
                KafkaSourceOptions.defaults(deadLetters));
    }

    private NexmarkRecords.ScheduledEvent decodeNexmark(byte[] value) {
        NexmarkRecords.ScheduledEvent e = NexmarkRecords.decode(value);
        noteScheduled(e.scheduledEpochNanos());
        return e;
    }

    private void noteScheduled(long epochNanos) {
        newestScheduled.accumulate(epochNanos);
    }

    private static WindowLatencyRecorder windowRecorder(LatencyLog latency, LatencyLogs logs, Path dir) throws IOException {
        return new WindowLatencyRecorder(latency, logs.open(dir.resolve("completion.hlog")), logs.clock());
    }

    @Override
    public long emitted() {
        return consumed.sum();
    }

    @Override
    public long lagNanos() {
        long newest = newestScheduled.get();
        return newest == Long.MIN_VALUE || clock == null ? 0 : Math.max(0, clock.nowMicros() * 1_000 - newest);
    }

    /**
     * The Kafka source's figures for member.json; with a guarantee, also the offsets the last
     * committed snapshot holds (where a restore would resume), summed over the partitions.
     */
    void describe(ObjectNode m, Map<String, Long> jobMetrics, SnapshotStore snapshots, long lastSnapshot) {
        m.put("source", Scenario.KAFKA);
        m.put("kafka_topic", endpoint.topic());
        m.put("malformed_records", MemberRun.sumOf(jobMetrics, ".malformedRecords"));
        m.put("dead_letters", DEAD_LETTERS);
        long polls = MemberRun.sumOf(jobMetrics, ".polls");
        m.put("kafka_polls", polls);
        m.put("kafka_poll_mean_us", polls == 0 ? 0 : MemberRun.sumOf(jobMetrics, ".pollNanos") / 1e3 / polls);
        m.put("kafka_polls_over_1ms", MemberRun.sumOf(jobMetrics, ".pollsOver1ms"));
        if (scenario.guarantee() != ProcessingGuarantee.NONE) {
            Map<TopicPartition, Long> offsets = SnapshotOffsets.read(snapshots, lastSnapshot, SnapshotOffsets.SOURCE_VERTEX);
            m.put("kafka_snapshot_partitions", offsets.size());
            m.put("kafka_snapshot_offsets_total", offsets.values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Override
    public void close() {
        deadLetters.close();
    }
}
