package io.fournines.nexmark.queries;

import io.fournines.engine.core.Traversers;
import io.fournines.engine.pipeline.StreamStage;
import io.fournines.engine.window.WindowDefinition;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.HighestBid;

/**
 * Q7: per tumbling window, every bid at the window's highest price. One global window aggregate
 * keeps the bids tied for the maximum as it goes (locally per core, then combined), so the bids
 * need no second pass or join against the maximum.
 */
public final class Q7HighestBid implements WindowedQuery<HighestBid> {

    private final WindowDefinition window;

    public Q7HighestBid(long windowMs) {
        this.window = WindowDefinition.tumbling(windowMs);
    }

    @Override
    public StreamStage<HighestBid> attach(StreamStage<Event> events) {
        return EventStages.bids(events)
                .window(window)
                .aggregate(TiedForMaxOperation.of(Bid::price))
                .flatMap(w -> Traversers.traverseIterable(w.result())
                        .map(b -> new HighestBid(w.start(), w.end(), b.auction(), b.bidder(), b.price(), b.dateTime())));
    }
}
