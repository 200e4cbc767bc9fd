package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.LocalItemSuggestion;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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
        List<LocalItemSuggestion> results = new ArrayList<>();
        for (Event e : events) {
            if (!(e instanceof Auction a) || a.category() != CATEGORY) {
                continue;
            }
            for (Event other : events) {
                if (other instanceof Person p && p.id() == a.seller() && STATES.contains(p.state())) {
                    results.add(new LocalItemSuggestion(p.name(), p.city(), p.state(), a.id()));
                }
            }
        }
        return results;
    }
}
