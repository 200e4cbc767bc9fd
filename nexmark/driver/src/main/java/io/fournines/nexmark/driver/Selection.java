package io.fournines.nexmark.driver;

import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.EventSelection;
import io.fournines.nexmark.query.QueryParameters;

import java.io.Serializable;

/**
 * Q0, Q1 or Q2 as a serializable filter + map for an engine that ships its functions with the job:
 * the query's {@link EventSelection}, made again on each side, so every engine selects and
 * converts exactly alike.
 */
public final class Selection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String query;
    private final long auctionSkip;
    private transient EventSelection<?> selection;

    public Selection(Scenario scenario) {
        this(scenario.query(), scenario.parameters().auctionSkip());
    }

    public Selection(String query, long auctionSkip) {
        this.query = query;
        this.auctionSkip = auctionSkip;
        selection();
    }

    public boolean selects(Event event) {
        return selection().selects(event);
    }

    /** Only for events {@link #selects} keeps. */
    public Object result(Event event) {
        return selection().result(event);
    }

    private EventSelection<?> selection() {
        if (selection == null) {
            selection = EventSelection.of(query, QueryParameters.defaults().withAuctionSkip(auctionSkip));
        }
        return selection;
    }
}
