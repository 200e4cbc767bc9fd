package io.fournines.nexmark.queries;

import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.LocalItemSuggestion;
import io.fournines.nexmark.query.SellerGroup;

import java.util.List;
import java.util.Set;

/**
 * Q3: people in OR, ID or CA with the category-10 auctions they sell, as an unwindowed join keyed by
 * person id: each pair is emitted as soon as its second half arrives, in whichever order.
 *
 * <p>The join keeps every matching person and auction for the life of the job, as the query's
 * meaning requires (a person may be matched by any later auction). Memory therefore grows with the
 * input: fine for bounded inputs, not for an endless benchmark run.
 */
public final class Q3LocalItemSuggestion implements NexmarkQuery<LocalItemSuggestion> {

    private static final Set<String> STATES = Set.of("OR", "ID", "CA");
    private static final long CATEGORY = 10;

    @Override
    public StreamStage<LocalItemSuggestion> attach(StreamStage<Event> events) {
        return events.filter(e -> e instanceof Person p && STATES.contains(p.state()) || e instanceof Auction a && a.category() == CATEGORY)
                     .groupingKey(EventStages::personOrSeller)
                     .mapStateful(SellerGroup::new, (SellerGroup group, Long id, Event e) -> group.addAndPair(e, Q3LocalItemSuggestion::suggest))
                     .flatMap((List<LocalItemSuggestion> pairs) -> Traversers.traverseIterable(pairs));
    }

    private static LocalItemSuggestion suggest(Person p, Auction a) {
        return new LocalItemSuggestion(p.name(), p.city(), p.state(), a.id());
    }
}
