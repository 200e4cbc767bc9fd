package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;

import java.util.ArrayList;
import java.util.List;

/** Every auction that has a winner, with its winning bid, by checking every bid against every auction. */
final class WinningBids {
    private WinningBids() {
    }

    record Won(Auction auction, Bid winner) {
    }

    /** In input order of the auctions. */
    static List<Won> of(List<Event> events) {
        List<Won> won = new ArrayList<>();
        for (Event e : events) {
            if (!(e instanceof Auction auction)) {
                continue;
            }
            Bid best = null;
            for (Event other : events) {
                if (other instanceof Bid bid
                        && bid.auction() == auction.id()
                        && bid.dateTime() >= auction.dateTime()
                        && bid.dateTime() < auction.expires()
                        && bid.price() >= auction.reserve()
                        && (best == null
                            || bid.price() > best.price()
                            || bid.price() == best.price() && bid.dateTime() < best.dateTime())) {
                    best = bid;
                }
            }
            if (best != null) {
                won.add(new Won(auction, best));
            }
        }
        return won;
    }
}
