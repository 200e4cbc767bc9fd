package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.EuroBid;

import java.util.ArrayList;
import java.util.List;

/** Q1 currency conversion: every bid, in input order, price times 89/100 rounded down. */
public final class Q1Reference {
    private Q1Reference() {
    }

    public static List<EuroBid> run(List<Event> events) {
        List<EuroBid> results = new ArrayList<>();
        for (Event e : events) {
            if (e instanceof Bid b) {
                results.add(new EuroBid(b.auction(), b.bidder(), b.price() * 89 / 100, b.dateTime()));
            }
        }
        return results;
    }
}
