package io.fournines.nexmark.fournines;

import io.fournines.nexmark.query.HighestBid;
import io.fournines.nexmark.query.HotItem;
import io.fournines.nexmark.query.NewUserAuction;

/**
 * A result as the active-active consumer compares copies: its key within its window (which result
 * it is) and its value (what it says). Two copies agree when equal keys carry equal values.
 */
record ResultKey(String key, String value) {

    static ResultKey of(Object result) {
        if (result instanceof HotItem r) {
            return new ResultKey(Long.toString(r.auction()), Long.toString(r.count()));
        }
        if (result instanceof HighestBid r) {
            return new ResultKey(r.auction() + "/" + r.bidder(), r.price() + "@" + r.dateTime());
        }
        if (result instanceof NewUserAuction r) {
            return new ResultKey(Long.toString(r.id()), clean(r.name()) + "/" + r.reserve());
        }
        // A per-event result is its own key: one per event, and the event's schedule is the "window".
        return new ResultKey(clean(result.toString()), "");
    }

    /** Tabs and line breaks separate the wire format's fields and lines. */
    private static String clean(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
