package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.CategoryAverage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Q4 average price per category: for each sliding window and category, the floor of the mean
 * winning price of the category's auctions that closed in the window; ordered by window, then
 * category.
 */
public final class Q4Reference {
    private Q4Reference() {
    }

    public static List<CategoryAverage> run(List<Event> events, long size, long slide) {
        // window start -> category -> {sum, count}
        Map<Long, Map<Long, long[]>> windows = new TreeMap<>();
        for (WinningBids.Won won : WinningBids.of(events)) {
            for (long start : ReferenceWindows.startsOfWindowsHolding(won.auction().expires(), size, slide)) {
                long[] sumAndCount = windows.computeIfAbsent(start, s -> new TreeMap<>())
                        .computeIfAbsent(won.auction().category(), c -> new long[2]);
                sumAndCount[0] += won.winner().price();
                sumAndCount[1]++;
            }
        }
        List<CategoryAverage> results = new ArrayList<>();
        windows.forEach((start, categories) -> categories.forEach((category, sumAndCount) ->
                results.add(new CategoryAverage(start, start + size, category, sumAndCount[0] / sumAndCount[1]))));
        return results;
    }
}
