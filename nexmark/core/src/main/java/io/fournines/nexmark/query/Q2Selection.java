package io.fournines.nexmark.query;

import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;

/** Q2: the auction and price of every bid on an auction whose id is a multiple of the skip (Beam: 123). */
public final class Q2Selection implements EventSelection<AuctionPrice> {

    private final long auctionSkip;

    public Q2Selection(long auctionSkip) {
        if (auctionSkip < 1) {
            throw new IllegalArgumentException("auction skip must be at least 1, got " + auctionSkip);
        }
        this.auctionSkip = auctionSkip;
    }

    @Override
    public boolean selects(Event event) {
        return event instanceof Bid bid && bid.auction() % auctionSkip == 0;
    }

    @Override
    public AuctionPrice result(Event event) {
        Bid bid = (Bid) event;
        return new AuctionPrice(bid.auction(), bid.price());
    }
}
