package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.BidWithSideInput;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Q13 bounded side-input join: each bid with the side input's value for key {@code bidder % rows}, in input order. */
public final class Q13Reference {
    private Q13Reference() {
    }

    public static List<BidWithSideInput> run(List<Event> events, Map<Long, String> sideInput, long rows) {
        List<BidWithSideInput> results = new ArrayList<>();
        for (Event e : events) {
            if (e instanceof Bid b) {
                String value = sideInput.get(Math.floorMod(b.bidder(), rows));
                if (value != null) {
                    results.add(new BidWithSideInput(b.auction(), b.bidder(), b.price(), b.dateTime(), value));
                }
            }
        }
        return results;
    }
}
