package io.fournines.nexmark.fournines;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fournines.engine.kafka.DeadLetterFile;
import io.fournines.engine.kafka.KafkaSinks;
import io.fournines.engine.kafka.KafkaSourceOptions;
import io.fournines.engine.kafka.KafkaSources;
import io.fournines.engine.kafka.RecordDecoder;
import io.fournines.engine.kafka.SnapshotOffsets;
import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.StreamSource;
import io.fournines.engine.pipeline.StreamSourceStage;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.snapshot.SnapshotStore;
import io.fournines.nexmark.codec.EndOfStream;
import io.fournines.nexmark.codec.NexmarkRecords;
import io.fournines.nexmark.driver.KafkaEndpoint;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.driver.latency.EpochClock;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.queries.NexmarkQuery;
import io.fournines.nexmark.queries.PerEventQuery;
import io.fournines.nexmark.queries.Queries;
import io.fournines.nexmark.queries.ResultLines;
import io.fournines.nexmark.queries.TradesPerSecond;
import io.fournines.nexmark.queries.WindowedQuery;
import io.fournines.nexmark.queries.YsbCampaignViews;
import io.fournines.nexmark.trades.Trade;
import io.fournines.nexmark.trades.TradeCodec;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.AdEventJson;
import io.fournines.nexmark.ysb.YsbAds;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The member's load from Kafka ({@code load.source: kafka}): the query reads the topic the load
 * generator (loadgen/) fills instead of the in-process generator. Every record carries its event's
 * scheduled time, so latency is measured exactly as in-process: per event from the scheduled time,
 * per window from the window's end. Malformed records are counted and set aside in
 * {@code dead-letters.jsonl}. As "behind", it reports how far the newest consumed event is behind
 * its schedule: the generator's own lag is in its loadgen.json. A bounded load ({@code load.events})
 * ends at the load generator's {@link EndOfStream} records. The results go to a checked
 * run's recording sink, and to the endpoint's results topic if it names one: as
 * {@link ResultLines}, in transactions committed with the job's snapshots under exactly-once.
 */
final class KafkaLoad implements AutoCloseable {

    static final String DEAD_LETTERS = "dead-letters.jsonl";

    private final Scenario scenario;
    private final KafkaEndpoint endpoint;
    private final DeadLetterFile deadLetters;
    private final LongAdder consumed = new LongAdder();
    private final LongAccumulator newestScheduled = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private final EpochClock clock;
    /** The vertex the source runs in, in the job as last planned: its snapshots hold the offsets. */
    private volatile String sourceVertex = SnapshotOffsets.SOURCE_VERTEX;

    KafkaLoad(Scenario scenario, Path dir) throws IOException {
        this.scenario = scenario;
        this.endpoint = scenario.kafka();
        this.deadLetters = new DeadLetterFile(dir.resolve(DEAD_LETTERS));
        this.clock = EpochClock.system();
    }

    /**
     * Before the job's start instant: fails, naming the topic and the bootstrap, unless the load's
     * topic exists, loading the Kafka client on the way ({@link KafkaSources#partitionCount}); and
     * readies the broker for an exactly-once results topic, whose sink would otherwise spend the
     * job's first seconds on a fresh broker's coordinators while the load piles up.
     */
    static void prepare(Scenario scenario) {
        KafkaEndpoint endpoint = scenario.kafka();
        try {
            KafkaSources.partitionCount(clientProperties(endpoint), endpoint.topic(), KafkaSourceOptions.DEFAULT_METADATA_TIMEOUT);
            if (endpoint.resultsTopic() != null && scenario.guarantee() == Scenario.Guarantee.EXACTLY_ONCE) {
                KafkaSinks.prepareTransactional(clientProperties(endpoint), transactionalIdPrefix(endpoint.resultsTopic()));
            }
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + " on " + endpoint.bootstrap());
        }
    }

    /** The results sink's: it names the run (its topic is the run's own), so restarts of the job keep it and other runs do not share it. */
    private static String transactionalIdPrefix(String resultsTopic) {
        return "fournines-" + resultsTopic;
    }

    /** The source's consumer and the sink's producer need only the bootstrap: the rest is each client's own. */
    private static Map<String, Object> clientProperties(KafkaEndpoint endpoint) {
        return Map.of("bootstrap.servers", endpoint.bootstrap());
    }

    /**
     * Source, query and latency sink, into a new pipeline for each execution of the job (a cluster
     * runs it again after a lost member), ending in sinks that report to {@code run}.
     */
    void attach(Pipeline pipeline, RunContext run, Predicate<Object> countProcessed, Sink<Object> record) {
        attachQuery(pipeline, run, countProcessed, record);
        sourceVertex = SnapshotOffsets.sourceVertexIn(pipeline.toDag());
    }

    private void attachQuery(Pipeline pipeline, RunContext run, Predicate<Object> countProcessed, Sink<Object> record) {
        if (scenario.query().equals(TradesPerSecond.NAME)) {
            StreamStage<Trade> trades = pipeline.readFrom(source(r -> {
                Trade trade = TradeCodec.decode(r.value());
                noteScheduled(trade.scheduledEpochNanos());
                return trade;
            })).withTimestamps(Trade::timeMillis, 0);
            StreamStage<?> results = TradesPerSecond.attach(trades.filter(countProcessed), scenario.parameters().windowMs(),
                    scenario.parameters().slideMs());
            results.writeTo(WindowLatencySinkP.sink(run, scenario.threads()));
            keep(results, record);
            return;
        }
        if (scenario.query().equals(YsbCampaignViews.NAME)) {
            YsbAds ads = YsbAds.standard();
            // A record holds one event, YSB's JSON: its line 1.
            StreamStage<AdEvent> events = pipeline.readFrom(source(r -> {
                AdEvent e = AdEventJson.read(new String(r.value(), StandardCharsets.UTF_8), 1);
                noteScheduled(e.eventTimeMillis() * 1_000_000L);
                return e;
            })).withTimestamps(AdEvent::eventTimeMillis, 0);
            StreamStage<?> results = YsbCampaignViews.attach(events.filter(countProcessed), ads, scenario.parameters().windowMs());
            results.writeTo(WindowLatencySinkP.sink(run, scenario.threads()));
            keep(results, record);
            return;
        }
        NexmarkQuery<?> query = Queries.create(scenario.query(), pipeline, scenario.parameters());
        if (query instanceof PerEventQuery<?> perEvent) {
            StreamSourceStage<Timed<Event>> events = pipeline.readFrom(source(r -> {
                NexmarkRecords.ScheduledEvent e = decodeNexmark(r.value());
                return new Timed<>(e.event(), e.scheduledEpochNanos());
            }));
            StreamStage<? extends Timed<?>> timed = FourninesPipelines.perEventResults(perEvent,
                    FourninesPipelines.timedEvents(perEvent, events).filter(countProcessed), run);
            keep(timed.map(Timed::item), record);
            return;
        }
        StreamStage<Event> events = pipeline.readFrom(source(r -> decodeNexmark(r.value()).event())).withTimestamps(Event::dateTime, 0);
        keep(FourninesPipelines.windowedResults((WindowedQuery<?>) query, events.filter(countProcessed), run, scenario.threads(), null), record);
    }

    /** The results into {@code record} (a checked run's; may be null) and the results topic, if there is one. */
    private void keep(StreamStage<?> results, Sink<Object> record) {
        if (record != null) {
            results.writeTo(record);
        }
        String topic = endpoint.resultsTopic();
        if (topic != null) {
            Map<String, Object> producer = clientProperties(endpoint);
            Function<Object, ProducerRecord<byte[], byte[]>> toRecord =
                    result -> new ProducerRecord<>(topic, null, ResultLines.of(result).getBytes(StandardCharsets.UTF_8));
            results.writeTo(scenario.guarantee() == Scenario.Guarantee.EXACTLY_ONCE
                    ? KafkaSinks.kafkaTransactional(producer, transactionalIdPrefix(topic), toRecord) : KafkaSinks.kafka(producer, toRecord));
        }
    }

    private <T> StreamSource<T> source(RecordDecoder<T> decoder) {
        RecordDecoder<T> counting = record -> {
            T item = decoder.decode(record);
            consumed.increment();
            return item;
        };
        KafkaSourceOptions options = KafkaSourceOptions.defaults(deadLetters);
        return KafkaSources.kafka(clientProperties(endpoint), endpoint.topic(), counting,
                scenario.bounded() ? options.endingAt(r -> r.headers().lastHeader(EndOfStream.HEADER) != null) : options);
    }

    private NexmarkRecords.ScheduledEvent decodeNexmark(byte[] value) {
        NexmarkRecords.ScheduledEvent e = NexmarkRecords.decode(value);
        noteScheduled(e.scheduledEpochNanos());
        return e;
    }

    private void noteScheduled(long epochNanos) {
        newestScheduled.accumulate(epochNanos);
    }

    /** Records consumed so far. */
    long consumed() {
        return consumed.sum();
    }

    /** How far the newest consumed event is behind its schedule; 0 before any. */
    long lagNanos() {
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
        m.put("malformed_records", FourninesEngine.sumOf(jobMetrics, ".malformedRecords"));
        m.put("dead_letters", DEAD_LETTERS);
        long polls = FourninesEngine.sumOf(jobMetrics, ".polls");
        m.put("kafka_polls", polls);
        m.put("kafka_poll_mean_us", polls == 0 ? 0 : FourninesEngine.sumOf(jobMetrics, ".pollNanos") / 1e3 / polls);
        m.put("kafka_polls_over_1ms", FourninesEngine.sumOf(jobMetrics, ".pollsOver1ms"));
        if (scenario.guarantee() != Scenario.Guarantee.NONE) {
            Map<TopicPartition, Long> offsets = SnapshotOffsets.read(snapshots.get(), lastSnapshot, sourceVertex);
            m.put("kafka_snapshot_partitions", offsets.size());
            m.put("kafka_snapshot_offsets_total", offsets.values().stream().mapToLong(Long::longValue).sum());
        }
    }

    @Override
    public void close() {
        deadLetters.close();
    }
}
