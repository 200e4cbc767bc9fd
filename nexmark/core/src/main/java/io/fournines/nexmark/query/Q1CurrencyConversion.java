package io.fournines.nexmark.query;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;

/** Q1: every bid with its price converted from dollar to euro cents (times 89/100, rounded down). */
public final class Q1CurrencyConversion implements EventSelection<EuroBid> {

    @Override
    public boolean selects(Event event) {
        return event instanceof Bid;
    }

    @Override
    public EuroBid result(Event event) {
        Bid bid = (Bid) event;
        return new EuroBid(bid.auction(), bid.bidder(), bid.price() * 89 / 100, bid.dateTime());
    }
}
