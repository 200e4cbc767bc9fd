package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HotItem;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Q5 hot items: per sliding window, every auction tied for the most bids; ordered by window, then auction. */
public final class Q5Reference {
    private Q5Reference() {
    }

    public static List<HotItem> run(List<Event> events, long size, long slide) {
        // window start -> auction -> bids; hashed while counting (a bid lands in size/slide windows),
        // ordered only for the output
        Map<Long, Map<Long, Long>> counts = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Bid b) {
                for (long start : ReferenceWindows.startsOfWindowsHolding(b.dateTime(), size, slide)) {
                    counts.computeIfAbsent(start, s -> new HashMap<>()).merge(b.auction(), 1L, Long::sum);
                }
            }
        }
        List<HotItem> results = new ArrayList<>();
        new TreeMap<>(counts).forEach((start, perAuction) -> {
            long most = Collections.max(perAuction.values());
            new TreeMap<>(perAuction).forEach((auction, count) -> {
                if (count == most) {
                    results.add(new HotItem(start, start + size, auction, count));
                }
            });
        });
        return results;
    }
}
