package io.fournines.nexmark.fournines;

import io.fournines.engine.pipeline.Pipeline;
import io.fournines.engine.pipeline.Sink;
import io.fournines.engine.pipeline.Sinks;
import io.fournines.engine.pipeline.Sources;
import io.fournines.engine.pipeline.StreamSourceStage;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.ScheduleMonitor;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.Scenario;
import io.fournines.nexmark.driver.SinkWatermarks;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.queries.NexmarkQuery;
import io.fournines.nexmark.queries.PerEventQuery;
import io.fournines.nexmark.queries.Queries;
import io.fournines.nexmark.queries.ScheduledSums;
import io.fournines.nexmark.queries.TradesPerSecond;
import io.fournines.nexmark.queries.WindowedQuery;
import io.fournines.nexmark.queries.YsbCampaignViews;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.trades.Trade;
import io.fournines.nexmark.trades.TradeGenerator;
import io.fournines.nexmark.ysb.AdEvent;
import io.fournines.nexmark.ysb.YsbAds;
import io.fournines.nexmark.ysb.YsbGenerator;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the reference engine's member computes from the in-process generator: the scenario's query
 * (one generator slice per worker thread, on the engine's own paced source), ending in the run's
 * latency sinks and, active-active, the forwarder to the result consumer. A new pipeline for each
 * execution: a cluster runs the job again after a lost member.
 */
final class FourninesPipelines {

    private FourninesPipelines() {
    }

    /**
     * @param load      the events: rate, keys and how many ({@link Scenario#generator()} for a run)
     * @param processed counts every event reaching the query's first stage (a filter that keeps all, fused into it)
     * @param start     the generator's time origin: a cluster's members share one, so they follow one schedule
     * @param forwarder active-active: where the results also go; null otherwise
     * @param record    a checked run: where every result is recorded too; null otherwise
     */
    static Pipeline generatorFed(String queryName, QueryParameters parameters, GeneratorSpec load, int threads, RunContext run,
                                 ScheduleMonitor monitor, Supplier<GeneratorSourceP.SharedStart> start, Predicate<Object> processed,
                                 ResultForwarder forwarder, Sink<Object> record) {
        Pipeline pipeline = Pipeline.create().localPreAggregation(localPreAggregation());
        StreamStage<?> results;
        if (queryName.equals(YsbCampaignViews.NAME)) {
            YsbAds ads = YsbAds.standard();
            StreamStage<AdEvent> events = pipeline.readFrom(Sources.generator(load.rate(), load.limit(), () -> {
                YsbGenerator generator = new YsbGenerator(YsbAds.SEED, ads);
                return generator::event;
            }, monitor, start)).withTimestamps(AdEvent::eventTimeMillis, 0);
            results = windowLatency(YsbCampaignViews.attach(events.filter(processed::test), ads, parameters.windowMs()), run, threads, record);
        } else if (queryName.equals(TradesPerSecond.NAME)) {
            // The same trades the load generator sends through Kafka (its ticker count), without the broker.
            StreamStage<Trade> trades = pipeline.readFrom(Sources.generator(load.rate(), load.limit(), () -> {
                TradeGenerator generator = new TradeGenerator(TradeGenerator.DEFAULT_TICKERS);
                return generator::trade;
            }, monitor, start)).withTimestamps(Trade::timeMillis, 0);
            results = windowLatency(TradesPerSecond.attach(trades.filter(processed::test), parameters.windowMs(), parameters.slideMs()),
                    run, threads, record);
        } else if (queryName.equals(ScheduledSums.NAME)) {
            StreamStage<ScheduledSums.Drawn> numbers = pipeline.readFrom(Sources.generator(load.rate(), load.limit(),
                    () -> (sequence, scheduledNanos) -> new ScheduledSums.Drawn(ScheduledSums.number(sequence), millis(scheduledNanos)), monitor, start))
                    .withTimestamps(ScheduledSums.Drawn::timeMs, 0);
            results = windowLatency(ScheduledSums.attach(numbers.filter(processed::test), load.keys(), parameters.windowMs()), run, threads, record);
        } else {
            results = nexmark(pipeline, queryName, parameters, load, threads, run, monitor, start, processed, record);
        }
        if (forwarder != null) {
            SinkWatermarks watermarks = new SinkWatermarks(threads);
            results.writeTo(Sinks.fromProcessor("forward-results", () -> new ForwardResultSinkP(forwarder, watermarks)));
        }
        return pipeline;
    }

    private static StreamStage<?> nexmark(Pipeline pipeline, String queryName, QueryParameters parameters, GeneratorSpec load, int threads,
                                          RunContext run, ScheduleMonitor monitor, Supplier<GeneratorSourceP.SharedStart> start,
                                          Predicate<Object> processed, Sink<Object> record) {
        NexmarkQuery<?> query = Queries.create(queryName, pipeline, parameters);
        GeneratorConfig config = load.config();
        if (query instanceof PerEventQuery<?> perEvent) {
            StreamSourceStage<Timed<Event>> source = pipeline.readFrom(Sources.generator(load.rate(), load.limit(), () -> {
                NexmarkGenerator generator = new NexmarkGenerator(config);
                return (sequence, scheduledNanos) -> new Timed<Event>(generator.event(sequence, millis(scheduledNanos)), scheduledNanos);
            }, monitor, start));
            StreamStage<? extends Timed<?>> timed = perEventResults(perEvent, timedEvents(perEvent, source).filter(processed::test), run);
            if (record != null) {
                timed.map(Timed::item).writeTo(record);
            }
            return timed;
        }
        StreamStage<Event> events = pipeline.readFrom(Sources.generator(load.rate(), load.limit(), () -> new GeneratedEvents(config), monitor, start))
                .withTimestamps(Event::dateTime, 0);
        return windowedResults((WindowedQuery<?>) query, events.filter(processed::test), run, threads, record);
    }

    /** Window results ({@link io.fournines.nexmark.query.WindowedResult}s) into the window latency sink, and into {@code record} if it is not null. */
    static StreamStage<?> windowLatency(StreamStage<?> results, RunContext run, int threads, Sink<Object> record) {
        return windowLatency(results, WindowLatencySinkP.sink(run, threads), record);
    }

    /** A NEXMark windowed query's results into the window latency sink (each timed by the query's window end) and {@code record}. */
    static <R> StreamStage<R> windowedResults(WindowedQuery<R> query, StreamStage<Event> events, RunContext run, int threads, Sink<Object> record) {
        return windowLatency(query.attach(events), WindowLatencySinkP.sink(run, threads, query::windowEnd), record);
    }

    private static <T> StreamStage<T> windowLatency(StreamStage<T> results, Sink<? super T> latencySink, Sink<Object> record) {
        results.writeTo(latencySink);
        if (record != null) {
            results.writeTo(record);
        }
        return results;
    }

    /** Events carrying their scheduled time, with event time from their dateTime for a join, whose state expires by it. */
    static StreamStage<Timed<Event>> timedEvents(PerEventQuery<?> query, StreamSourceStage<Timed<Event>> source) {
        return query.pairsEvents() ? source.withTimestamps(timed -> timed.item().dateTime(), 0) : source.withoutTimestamps();
    }

    /** A per-event query's results, each reported to {@code run} with its event's scheduled time. */
    static <R> StreamStage<Timed<R>> perEventResults(PerEventQuery<R> query, StreamStage<Timed<Event>> events, RunContext run) {
        StreamStage<Timed<R>> results = attachTimed(query, events);
        results.writeTo(PerEventLatencySinkP.sink(run));
        return results;
    }

    /** A per-event query over events that carry their scheduled time, which each result keeps. */
    static <R> StreamStage<Timed<R>> attachTimed(PerEventQuery<R> query, StreamStage<Timed<Event>> events) {
        return query.attach(events, Timed::item, (event, result) -> new Timed<>(result, event.scheduledEpochNanos()));
    }

    /** -Dfournines.localPreAggregation=false sends raw events across members: to measure what the local stage saves. */
    static boolean localPreAggregation() {
        return Boolean.parseBoolean(System.getProperty("fournines.localPreAggregation", "true"));
    }

    /** An event's dateTime: its scheduled time, floored to the millisecond. */
    static long millis(long epochNanos) {
        return Math.floorDiv(epochNanos, 1_000_000L);
    }
}
