package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;
import io.fournines.nexmark.query.NewUserAuction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Q8 monitor new users: per tumbling window, each person created in it with each auction they
 * opened in the same window; ordered by window, then person and auction input position.
 */
public final class Q8Reference {
    private Q8Reference() {
    }

    public static List<NewUserAuction> run(List<Event> events, long size) {
        List<NewUserAuction> results = new ArrayList<>();
        for (Event e : events) {
            if (!(e instanceof Person p)) {
                continue;
            }
            long start = Math.floorDiv(p.dateTime(), size) * size;
            for (Event other : events) {
                if (other instanceof Auction a && a.seller() == p.id()
                        && Math.floorDiv(a.dateTime(), size) * size == start) {
                    results.add(new NewUserAuction(start, start + size, p.id(), p.name(), a.reserve()));
                }
            }
        }
        // A stable sort keeps input order within a window.
        results.sort(Comparator.comparingLong(NewUserAuction::start));
        return results;
    }
}
