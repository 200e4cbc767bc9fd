package io.fournines.nexmark.queries;

import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.LocalItemSuggestion;

import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Q3: people in OR, ID or CA with the category-10 auctions they sell, as an unwindowed join keyed by
 * person id: each pair is emitted as soon as its second half arrives, in whichever order, so each
 * result comes from the event that completed it.
 *
 * <p>On a stream with event time the join drops each auction once it has expired and each person
 * {@code personTtlMs} after it was created ({@link PersonAuctionJoin}), so an endless run keeps
 * bounded state: a person who comes after the auction expired, or an auction more than the
 * time-to-live after its seller, is not paired. Over input without timestamps (a file, in input
 * order) it keeps everything and so gives every pair, as the reference does.
 */
public final class Q3LocalItemSuggestion implements PerEventQuery<LocalItemSuggestion> {

    private static final Set<String> STATES = Set.of("OR", "ID", "CA");
    private static final long CATEGORY = 10;

    private final long personTtlMs;

    public Q3LocalItemSuggestion(long personTtlMs) {
        this.personTtlMs = personTtlMs;
    }

    @Override
    public boolean pairsEvents() {
        return true;
    }

    @Override
    public <T, O> StreamStage<O> attach(StreamStage<T> items, Function<? super T, ? extends Event> eventOf,
                                        BiFunction<? super T, ? super LocalItemSuggestion, ? extends O> withResult) {
        long ttl = personTtlMs;
        return items.filter(item -> matches(eventOf.apply(item)))
                    .groupingKey(item -> EventStages.personOrSeller(eventOf.apply(item)))
                    .mapStatefulExpiring(() -> new PersonAuctionJoin(ttl), (PersonAuctionJoin join, Long id, T item) ->
                            join.<O>addAndPair(eventOf.apply(item), (p, a) -> withResult.apply(item, suggest(p, a))))
                    .flatMap((List<O> results) -> Traversers.traverseIterable(results));
    }

    private static boolean matches(Event e) {
        return e instanceof Person p && STATES.contains(p.state()) || e instanceof Auction a && a.category() == CATEGORY;
    }

    private static LocalItemSuggestion suggest(Person p, Auction a) {
        return new LocalItemSuggestion(p.name(), p.city(), p.state(), a.id());
    }
}
