package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.AuctionPrice;

import java.util.ArrayList;
import java.util.List;

/** Q2 selection: bids on auctions whose id is a multiple of {@code skip} (Beam's 123), in input order. */
public final class Q2Reference {
    private Q2Reference() {
    }

    public static List<AuctionPrice> run(List<Event> events, long skip) {
        List<AuctionPrice> results = new ArrayList<>();
        for (Event e : events) {
            if (e instanceof Bid b && b.auction() % skip == 0) {
                results.add(new AuctionPrice(b.auction(), b.price()));
            }
        }
        return results;
    }
}
