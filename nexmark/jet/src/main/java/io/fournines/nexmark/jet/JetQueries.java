package io.fournines.nexmark.jet;

import com.hazelcast.function.ToLongFunctionEx;
import com.hazelcast.jet.Traversers;
import com.hazelcast.jet.aggregate.AggregateOperation1;
import com.hazelcast.jet.aggregate.AggregateOperation;
import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.datamodel.KeyedWindowResult;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.StreamStage;
import com.hazelcast.jet.pipeline.WindowDefinition;
import io.fournines.nexmark.driver.GeneratorSpec;
import io.fournines.nexmark.driver.RunContext;
import io.fournines.nexmark.driver.RunRef;
import io.fournines.nexmark.driver.Selection;
import io.fournines.nexmark.driver.Timed;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.HighestBid;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.NewUserAuction;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.SellerGroup;
import io.fournines.nexmark.query.TiedForMax;
import io.fournines.nexmark.query.WindowedResult;

import java.util.List;

/**
 * Q1, Q2, Q5, Q7 and Q8 on Jet's Pipeline API, shaped like the reference engine's (which follows
 * the Jet paper): the same stages, the same accumulators ({@link TiedForMax}, {@link SellerGroup}),
 * the same result records, so the results can be compared one for one.
 */
final class JetQueries {

    private JetQueries() {
    }

    static Pipeline pipeline(String query, QueryParameters parameters, GeneratorSpec spec, int threads, RunContext run) {
        RunRef ref = new RunRef(run);
        Pipeline p = Pipeline.create();
        if (query.equals("q1") || query.equals("q2")) {
            Selection selection = new Selection(query, parameters.auctionSkip());
            p.readFrom(PacedJetSource.timedEvents(spec, threads, ref))
             .withoutTimestamps()
             .filter(t -> counted(ref, t) && selection.selects(t.item()))
             .<Timed<?>>map(t -> new Timed<>(selection.result(t.item()), t.scheduledEpochNanos()))
             .writeTo(JetSinks.perEvent(ref));
            return p;
        }
        StreamStage<Event> events = p.readFrom(PacedJetSource.events(spec, threads, ref))
                                     .withTimestamps(Event::dateTime, 0)
                                     .filter(e -> counted(ref, e));
        StreamStage<? extends WindowedResult> results = switch (query) {
            case "q5" -> q5(events, parameters);
            case "q7" -> q7(events, parameters);
            case "q8" -> q8(events, parameters);
            default -> throw new IllegalArgumentException("Jet adapter: no query " + query);
        };
        results.map(r -> (WindowedResult) r).writeTo(JetSinks.windows(ref));
        return p;
    }

    /** A filter that keeps everything: counts the events that reach the query's first stage. */
    private static boolean counted(RunRef run, Object event) {
        run.get().processed();
        return true;
    }

    private static StreamStage<Bid> bids(StreamStage<Event> events) {
        return events.filter(e -> e instanceof Bid).map(e -> (Bid) e);
    }

    /** Sliding count per auction (Jet's two-stage, sliding by deduction), then the auctions tied for the most per window. */
    static StreamStage<HotItem> q5(StreamStage<Event> events, QueryParameters parameters) {
        return bids(events)
                .groupingKey(Bid::auction)
                .window(WindowDefinition.sliding(parameters.windowMs(), parameters.slideMs()))
                .aggregate(AggregateOperations.counting())
                .window(WindowDefinition.tumbling(parameters.slideMs()))
                .aggregate(tiedForMax((KeyedWindowResult<Long, Long> count) -> count.result()))
                .flatMap(hottest -> Traversers.traverseIterable(hottest.result())
                        .map(count -> new HotItem(count.start(), count.end(), count.key(), count.result())));
    }

    /** One global tumbling window keeping every bid tied for the highest price. */
    static StreamStage<HighestBid> q7(StreamStage<Event> events, QueryParameters parameters) {
        return bids(events)
                .window(WindowDefinition.tumbling(parameters.windowMs()))
                .aggregate(tiedForMax(Bid::price))
                .flatMap(w -> Traversers.traverseIterable(w.result())
                        .map(b -> new HighestBid(w.start(), w.end(), b.auction(), b.bidder(), b.price(), b.dateTime())));
    }

    /** Persons and auctions co-grouped by person id per tumbling window; every (person, auction) pair. */
    static StreamStage<NewUserAuction> q8(StreamStage<Event> events, QueryParameters parameters) {
        AggregateOperation1<Event, SellerGroup, SellerGroup> coGroup = AggregateOperation
                .withCreate(SellerGroup::new)
                .<Event>andAccumulate(SellerGroup::add)
                .andCombine(SellerGroup::addAll)
                .andExportFinish(group -> group);
        return events.filter(e -> e instanceof Person || e instanceof Auction)
                     .groupingKey(e -> e instanceof Person person ? person.id() : ((Auction) e).seller())
                     .window(WindowDefinition.tumbling(parameters.windowMs()))
                     .aggregate(coGroup)
                     .flatMap(w -> Traversers.traverseIterable(w.result().pairs(
                             (Person person, Auction auction) -> new NewUserAuction(w.start(), w.end(), person.id(), person.name(), auction.reserve()))));
    }

    private static <T> AggregateOperation1<T, TiedForMax<T>, List<T>> tiedForMax(ToLongFunctionEx<? super T> value) {
        return AggregateOperation
                .withCreate(TiedForMax<T>::new)
                .<T>andAccumulate((acc, item) -> acc.offer(value.applyAsLong(item), item))
                .andCombine(TiedForMax::combine)
                .andExportFinish(TiedForMax::items);
    }
}
