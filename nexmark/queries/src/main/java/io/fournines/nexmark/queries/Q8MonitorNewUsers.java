package io.fournines.nexmark.queries;

import io.fournines.engine.aggregate.AggregateOperation;
import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.NewUserAuction;
import io.fournines.nexmark.query.SellerGroup;

/**
 * Q8: per tumbling window, the people created in it with the auctions they opened in it. Persons
 * and auctions are co-grouped by person id (the auction's seller) and window; the window's group
 * then yields every (person, auction) pair.
 */
public final class Q8MonitorNewUsers implements WindowedQuery<NewUserAuction> {

    private final WindowDefinition window;

    public Q8MonitorNewUsers(long windowMs) {
        this.window = WindowDefinition.tumbling(windowMs);
    }

    @Override
    public StreamStage<NewUserAuction> attach(StreamStage<Event> events) {
        AggregateOperation<Event, SellerGroup, SellerGroup> coGroup =
                AggregateOperation.of(SellerGroup::new, SellerGroup::add, SellerGroup::addAll, group -> group);
        return events.filter(e -> e instanceof Person || e instanceof Auction)
                     .groupingKey(EventStages::personOrSeller)
                     .window(window)
                     .aggregate(coGroup)
                     .flatMap(w -> Traversers.traverseIterable(w.result().pairs(
                             (Person p, Auction a) -> new NewUserAuction(w.start(), w.end(), p.id(), p.name(), a.reserve()))));
    }
}
