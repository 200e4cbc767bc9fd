package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.SellerAverage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Q6 average selling price by seller: closed auctions with a winner in close order (expiry, then
 * auction id, then creation time); for each, the floor of the mean of the seller's last 10 winning prices so far.
 */
public final class Q6Reference {
    private static final int LAST = 10;

    private Q6Reference() {
    }

    public static List<SellerAverage> run(List<Event> events) {
        List<WinningBids.Won> closed = new ArrayList<>(WinningBids.of(events));
        closed.sort(Comparator.comparingLong((WinningBids.Won w) -> w.auction().expires())
                .thenComparingLong(w -> w.auction().id()).thenComparingLong(w -> w.auction().dateTime()));
        List<SellerAverage> results = new ArrayList<>();
        for (int i = 0; i < closed.size(); i++) {
            WinningBids.Won current = closed.get(i);
            long seller = current.auction().seller();
            long sum = 0;
            int count = 0;
            // Walk back from this auction over the seller's earlier closings, up to ten in all.
            for (int j = i; j >= 0 && count < LAST; j--) {
                if (closed.get(j).auction().seller() == seller) {
                    sum += closed.get(j).winner().price();
                    count++;
                }
            }
            results.add(new SellerAverage(seller, current.auction().id(), sum / count, current.auction().expires()));
        }
        return results;
    }
}
