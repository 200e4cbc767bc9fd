package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HighestBid;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Q7 highest bid: per tumbling window, every bid at the window's highest price; by window, then input order. */
public final class Q7Reference {
    private Q7Reference() {
    }

    public static List<HighestBid> run(List<Event> events, long size) {
        Map<Long, Long> highest = new TreeMap<>();
        for (Event e : events) {
            if (e instanceof Bid b) {
                highest.merge(windowStart(b, size), b.price(), Math::max);
            }
        }
        List<HighestBid> results = new ArrayList<>();
        highest.forEach((start, price) -> {
            for (Event e : events) {
                if (e instanceof Bid b && windowStart(b, size) == start && b.price() == price) {
                    results.add(new HighestBid(start, start + size, b.auction(), b.bidder(), b.price(), b.dateTime()));
                }
            }
        });
        return results;
    }

    private static long windowStart(Bid b, long size) {
        return Math.floorDiv(b.dateTime(), size) * size;
    }
}
