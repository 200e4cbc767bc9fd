package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.LocalItemSuggestion;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Q3 local item suggestion: every (person in OR, ID or CA; category-10 auction they sell) pair,
 * ordered by auction input position, then person input position.
 */
public final class Q3Reference {
    private static final Set<String> STATES = Set.of("OR", "ID", "CA");
    private static final long CATEGORY = 10;

    private Q3Reference() {
    }

    public static List<LocalItemSuggestion> run(List<Event> events) {
        return pairs(events, (p, a) -> true);
    }

    /**
     * The pairs a streaming join must give when it drops an auction once the watermark reaches its
     * expiry and a person {@code personTtlMs} after it was created: those whose halves are both
     * held when the second comes (the person before the auction expired, the auction before the
     * person was dropped). Pairs on the boundary may come too, depending on how far the watermark
     * had got; never any pair {@link #run} does not give.
     */
    public static List<LocalItemSuggestion> runExpiring(List<Event> events, long personTtlMs) {
        return pairs(events, (p, a) -> p.dateTime() < a.expires() && a.dateTime() < p.dateTime() + personTtlMs);
    }

    private static List<LocalItemSuggestion> pairs(List<Event> events, BiPredicate<Person, Auction> kept) {
        List<LocalItemSuggestion> results = new ArrayList<>();
        for (Event e : events) {
            if (!(e instanceof Auction a) || a.category() != CATEGORY) {
                continue;
            }
            for (Event other : events) {
                if (other instanceof Person p && p.id() == a.seller() && STATES.contains(p.state()) && kept.test(p, a)) {
                    results.add(new LocalItemSuggestion(p.name(), p.city(), p.state(), a.id()));
                }
            }
        }
        return results;
    }
}
