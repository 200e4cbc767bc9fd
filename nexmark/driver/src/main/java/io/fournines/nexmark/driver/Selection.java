package io.fournines.nexmark.driver;

import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.Q1CurrencyConversion;
import io.fournines.nexmark.query.Q2Selection;
import io.fournines.nexmark.query.SelectionQuery;

import java.io.Serializable;

/**
 * Q1 or Q2 as a serializable filter + map for an engine that ships its functions with the job: the
 * reference engine's own {@link SelectionQuery}, made again on each side, so every engine selects
 * and converts exactly alike.
 */
public final class Selection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String query;
    private final long auctionSkip;
    private transient SelectionQuery<?> selection;

    public Selection(DriverScenario scenario) {
        this(scenario.query(), scenario.parameters().auctionSkip());
    }

    public Selection(String query, long auctionSkip) {
        if (!query.equals("q1") && !query.equals("q2")) {
            throw new IllegalArgumentException("not a selection query: " + query);
        }
        this.query = query;
        this.auctionSkip = auctionSkip;
    }

    public boolean selects(Event event) {
        return selection().selects(event);
    }

    /** Only for events {@link #selects} keeps. */
    public Object result(Event event) {
        return selection().result(event);
    }

    private SelectionQuery<?> selection() {
        if (selection == null) {
            selection = query.equals("q1") ? new Q1CurrencyConversion() : new Q2Selection(auctionSkip);
        }
        return selection;
    }
}
