package io.fournines.member;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.function.Supplier;

/**
 * The member's load from Kafka ({@code load.source: kafka}): the query reads the topic the load
 * generator (loadgen/) fills instead of the in-process generator. Every record carries its event's
 * scheduled time, so latency is measured exactly as in-process: per event from the scheduled time,
 * per window from the window's end. Malformed records are counted and set aside in
 * {@code dead-letters.jsonl}. As "behind", it reports how far the newest consumed event is behind
 * its schedule: the generator's own lag is in its loadgen.json.
 */
final class KafkaLoad implements LoadProgress, AutoCloseable {

    /**
     * Where the runner's Kafka is, and the run's topic: {@code run}'s options for a member alone; on
     * a cluster, a {@code kafka_endpoint} object the runner adds to the job JSON it submits.
     */
    record Endpoint(String bootstrap, String topic) {

        static final String FIELD = "kafka_endpoint";

        /** The job's endpoint; null when its load is not from Kafka. */
        static Endpoint of(JsonNode job, Scenario scenario) throws ScenarioException {
            JsonNode node = job.get(FIELD);
            boolean fromKafka = scenario.source().equals(Scenario.KAFKA);
            if (node == null && fromKafka) {
                throw new ScenarioException("load.source is kafka: the job needs the runner's " + FIELD + " {\"bootstrap\": \"HOST:PORT\", \"topic\": T}");
            }
            if (node == null) {
                return null;
            }
            if (!fromKafka) {
                throw new ScenarioException(FIELD + ": only for load.source kafka; it is " + scenario.source());
            }
            if (!node.isObject() || !node.path("bootstrap").isTextual() || !node.path("topic").isTextual()
                    || node.get("bootstrap").asText().isBlank() || node.get("topic").asText().isBlank()) {
                throw new ScenarioException(FIELD + ": must be {\"bootstrap\": \"HOST:PORT\", \"topic\": T}; is " + node);
            }
            return new Endpoint(node.get("bootstrap").asText(), node.get("topic").asText());
        }
    }

    static final String DEAD_LETTERS = "dead-letters.jsonl";

    private final Scenario scenario;
    private final Endpoint endpoint;
    private final DeadLetterFile deadLetters;
    private final LongAdder consumed = new LongAdder();
    private final LongAccumulator newestScheduled = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private final EpochClock clock;

    KafkaLoad(Scenario scenario, Endpoint endpoint, Path dir, EpochClock clock) throws IOException {
        this.scenario = scenario;
        this.endpoint = endpoint;
        this.deadLetters = new DeadLetterFile(dir.resolve(DEAD_LETTERS));
        this.clock = clock;
    }

    /**
     * Source, query and latency sink, into a new pipeline for each execution of the job (a cluster
     * runs it again after a lost member); {@code windows} gives the run's one window recorder.
     */
    void attach(Pipeline pipeline, LatencyLog latency, Supplier<WindowLatencyRecorder> windows, Predicate<Object> countProcessed) {
        if (scenario.query().equals(TradesPerSecond.NAME)) {
            StreamStage<Trade> trades = pipeline.readFrom(source(record -> {
                Trade trade = TradeCodec.decode(record.value());
                noteScheduled(trade.scheduledEpochNanos());
                return trade;
            })).withTimestamps(Trade::timeMillis, 0);
            TradesPerSecond.attach(trades.filter(countProcessed), scenario.parameters().windowMs(), scenario.parameters().slideMs())
                           .writeTo(MemberRun.windowLatencySink(windows.get(), scenario.threads()));
            return;
        }
        NexmarkQuery<?> query = Queries.create(scenario.query(), pipeline, scenario.parameters());
        if (query instanceof PerEventQuery<?> perEvent) {
            StreamStage<Scheduled<Event>> events = pipeline.readFrom(source(record -> {
                NexmarkRecords.ScheduledEvent e = decodeNexmark(record.value());
                return new Scheduled<>(e.event(), e.scheduledEpochNanos());
            })).withoutTimestamps();
            MemberRun.attachScheduled(perEvent, events.filter(countProcessed))
                     .writeTo(Sinks.fromProcessor("latency", () -> new PerEventLatencySinkP(latency, clock)));
            return;
        }
        StreamStage<Event> events = pipeline.readFrom(source(record -> decodeNexmark(record.value()).event())).withTimestamps(Event::dateTime, 0);
        query.attach(events.filter(countProcessed)).writeTo(MemberRun.windowLatencySink(windows.get(), scenario.threads()));
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

    @Override
    public long emitted() {
        return consumed.sum();
    }

    @Override
    public long lagNanos() {
        long newest = newestScheduled.get();
        return newest == Long.MIN_VALUE ? 0 : Math.max(0, clock.nowMicros() * 1_000 - newest);
    }

    /**
     * The Kafka source's figures for member.json; with a guarantee, also the offsets the last
     * committed snapshot holds (where a restore would resume), summed over the partitions; on a
     * cluster, over the partitions this member's sources read (the members' figures add up).
     */
    void describe(ObjectNode m, Map<String, Long> jobMetrics, Supplier<SnapshotStore> snapshots, long lastSnapshot) {
        m.put("source", Scenario.KAFKA);
        m.put("kafka_topic", endpoint.topic());
        m.put("malformed_records", MemberRun.sumOf(jobMetrics, ".malformedRecords"));
        m.put("dead_letters", DEAD_LETTERS);
        long polls = MemberRun.sumOf(jobMetrics, ".polls");
        m.put("kafka_polls", polls);
        m.put("kafka_poll_mean_us", polls == 0 ? 0 : MemberRun.sumOf(jobMetrics, ".pollNanos") / 1e3 / polls);
        m.put("kafka_polls_over_1ms", MemberRun.sumOf(jobMetrics, ".pollsOver1ms"));
        if (scenario.guarantee() != ProcessingGuarantee.NONE) {
            Map<TopicPartition, Long> offsets = SnapshotOffsets.read(snapshots.get(), lastSnapshot, SnapshotOffsets.SOURCE_VERTEX);
            m.put("kafka_snapshot_partitions", offsets.size());
            m.put("kafka_snapshot_offsets_total", offsets.values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Override
    public void close() {
        deadLetters.close();
    }
}
