package io.fournines.nexmark.flink;

import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Selection;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.flink.FlinkRecords.AuctionCount;
import io.fournines.nexmark.flink.FlinkRecords.BidRow;
import io.fournines.nexmark.flink.FlinkRecords.PersonOrAuction;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.HighestBid;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.NewUserAuction;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.TiedForMax;
import io.fournines.nexmark.query.WindowedResult;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.windowing.ProcessAllWindowFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.time.Duration;
import java.util.List;

/**
 * Q1, Q2, Q5, Q7 and Q8 on Flink's DataStream API with the stock window operators, the way a Flink
 * user would write them: keyed windows with incremental aggregates, POJOs across shuffles.
 * Per-event queries are one chain (source, filter, map, sink) per subtask. Windowed queries count
 * the events their first window drops as late (its late-data side output).
 */
final class FlinkQueries {
    private static final TypeInformation<Event> EVENT = new GenericTypeInfo<>(Event.class);
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final TypeInformation<Timed<?>> TIMED = new GenericTypeInfo<>((Class<Timed<?>>) (Class) Timed.class);
    private static final TypeInformation<WindowedResult> RESULT = new GenericTypeInfo<>(WindowedResult.class);
    private static final TypeInformation<FlinkAggregates.NewUsers.Group> GROUP = new GenericTypeInfo<>(FlinkAggregates.NewUsers.Group.class);

    private FlinkQueries() {
    }

    static void build(StreamExecutionEnvironment env, String query, QueryParameters parameters, GeneratorSpec spec, RunRef run) {
        if (query.equals("q1") || query.equals("q2")) {
            Selection selection = new Selection(query, parameters.auctionSkip());
            env.addSource(PacedFlinkSource.timedEvents(spec, run), "nexmark-generator", new GenericTypeInfo<>(timedEventClass()))
               .filter(t -> counted(run) && selection.selects(t.item()))
               .<Timed<?>>map(t -> new Timed<>(selection.result(t.item()), t.scheduledEpochNanos()))
               .returns(TIMED)
               .addSink(new FlinkSinks.PerEvent(run)).name("latency");
            return;
        }
        DataStream<Event> events = env.addSource(PacedFlinkSource.events(spec, run), "nexmark-generator", EVENT)
                                      .filter(e -> counted(run));
        DataStream<WindowedResult> results = switch (query) {
            case "q5" -> q5(events, parameters, run);
            case "q7" -> q7(events, parameters, run);
            case "q8" -> q8(events, parameters, run);
            default -> throw new IllegalArgumentException("Flink adapter: no query " + query);
        };
        // As many sink instances as the last stage has (one after Q7's windowAll): chained, so the
        // result records are handed over, never serialized.
        results.addSink(new FlinkSinks.Windows<>(run)).name("window-latency").setParallelism(results.getParallelism());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Class<TiedForMax<BidRow>> tiesClass() {
        return (Class) TiedForMax.class;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Class<Timed<Event>> timedEventClass() {
        return (Class) Timed.class;
    }

    /** Counts the events that reach the query's first stage (chained to the source). */
    private static boolean counted(RunRef run) {
        run.get().processed();
        return true;
    }

    /**
     * Sliding count per auction (Flink's WindowOperator keeps every (auction, window) pair the event
     * falls in: window/slide of them), then per window end the auctions tied for the most: a
     * window result's timestamp is its end - 1, so a tumbling window one slide long holds exactly
     * one sliding window's counts.
     */
    static DataStream<WindowedResult> q5(DataStream<Event> events, QueryParameters parameters, RunRef run) {
        OutputTag<Long> late = new OutputTag<>("late-bids", Types.LONG);
        SingleOutputStreamOperator<AuctionCount> counts = events
                .flatMap((Event e, Collector<Long> out) -> {
                    if (e instanceof Bid bid) {
                        out.collect(bid.auction());
                    }
                }).returns(Types.LONG)
                .keyBy(auction -> auction, Types.LONG)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(parameters.windowMs()), Duration.ofMillis(parameters.slideMs())))
                .sideOutputLateData(late)
                .aggregate(new FlinkAggregates.Count<>(), new ProcessWindowFunction<Long, AuctionCount, Long, TimeWindow>() {
                    @Override
                    public void process(Long auction, Context context, Iterable<Long> count, Collector<AuctionCount> out) {
                        out.collect(new AuctionCount(auction, count.iterator().next(), context.window().getStart(), context.window().getEnd()));
                    }
                });
        countLate(counts, late, run);
        return counts
                .keyBy(count -> count.end, Types.LONG)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(parameters.slideMs())))
                .aggregate(new FlinkAggregates.TiedMax<AuctionCount>(count -> count.count))
                .returns(Types.LIST(TypeInformation.of(AuctionCount.class)))
                .flatMap((List<AuctionCount> hottest, Collector<WindowedResult> out) -> {
                    for (AuctionCount c : hottest) {
                        out.collect(new HotItem(c.start, c.end, c.auction, c.count));
                    }
                }).returns(RESULT);
    }

    /**
     * The bids tied for the highest price per tumbling window: per auction first (parallel, keyed),
     * then over all auctions in a single-instance window; the union of per-auction ties filtered to
     * the overall maximum is exactly the overall ties.
     */
    static DataStream<WindowedResult> q7(DataStream<Event> events, QueryParameters parameters, RunRef run) {
        Duration window = Duration.ofMillis(parameters.windowMs());
        OutputTag<BidRow> late = new OutputTag<>("late-bids", TypeInformation.of(BidRow.class));
        SingleOutputStreamOperator<List<BidRow>> perAuction = events
                .flatMap((Event e, Collector<BidRow> out) -> {
                    if (e instanceof Bid b) {
                        out.collect(new BidRow(b.auction(), b.bidder(), b.price(), b.dateTime()));
                    }
                }).returns(BidRow.class)
                .keyBy(b -> b.auction, Types.LONG)
                .window(TumblingEventTimeWindows.of(window))
                .sideOutputLateData(late)
                .aggregate(new FlinkAggregates.TiedMax<BidRow>(b -> b.price))
                .returns(Types.LIST(TypeInformation.of(BidRow.class)));
        countLate(perAuction, late, run);
        return perAuction
                .flatMap((List<BidRow> ties, Collector<BidRow> out) -> ties.forEach(out::collect)).returns(BidRow.class)
                .windowAll(TumblingEventTimeWindows.of(window))
                .aggregate(new FlinkAggregates.TiedMax<BidRow>(b -> b.price), new ProcessAllWindowFunction<List<BidRow>, WindowedResult, TimeWindow>() {
                    @Override
                    public void process(Context context, Iterable<List<BidRow>> ties, Collector<WindowedResult> out) {
                        for (BidRow b : ties.iterator().next()) {
                            out.collect(new HighestBid(context.window().getStart(), context.window().getEnd(), b.auction, b.bidder, b.price, b.dateTime));
                        }
                    }
                }, new GenericTypeInfo<>(tiesClass()), Types.LIST(TypeInformation.of(BidRow.class)), RESULT);
    }

    /** Persons and auctions co-grouped by person id (the seller) per tumbling window; every (person, auction) pair. */
    static DataStream<WindowedResult> q8(DataStream<Event> events, QueryParameters parameters, RunRef run) {
        OutputTag<PersonOrAuction> late = new OutputTag<>("late-events", TypeInformation.of(PersonOrAuction.class));
        SingleOutputStreamOperator<WindowedResult> pairs = events
                .flatMap((Event e, Collector<PersonOrAuction> out) -> {
                    if (e instanceof Person p) {
                        out.collect(new PersonOrAuction(p.id(), true, p.name(), 0));
                    } else if (e instanceof Auction a) {
                        out.collect(new PersonOrAuction(a.seller(), false, null, a.reserve()));
                    }
                }).returns(PersonOrAuction.class)
                .keyBy(e -> e.id, Types.LONG)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(parameters.windowMs())))
                .sideOutputLateData(late)
                .aggregate(new FlinkAggregates.NewUsers(), new ProcessWindowFunction<FlinkAggregates.NewUsers.Group, WindowedResult, Long, TimeWindow>() {
                    @Override
                    public void process(Long id, Context context, Iterable<FlinkAggregates.NewUsers.Group> groups, Collector<WindowedResult> out) {
                        FlinkAggregates.NewUsers.Group group = groups.iterator().next();
                        for (String name : group.names) {
                            for (long reserve : group.reserves) {
                                out.collect(new NewUserAuction(context.window().getStart(), context.window().getEnd(), id, name, reserve));
                            }
                        }
                    }
                }, GROUP, GROUP, RESULT);
        countLate(pairs, late, run);
        return pairs;
    }

    private static <T> void countLate(SingleOutputStreamOperator<?> window, OutputTag<T> late, RunRef run) {
        window.getSideOutput(late).addSink(new FlinkSinks.LateEvents<>(run)).name("late-events");
    }
}
