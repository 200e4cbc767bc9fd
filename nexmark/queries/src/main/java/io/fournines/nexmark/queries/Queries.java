package io.fournines.nexmark.queries;

import io.fournines.engine.pipeline.Pipeline;
import io.fournines.nexmark.query.EventSelection;
import io.fournines.nexmark.query.QueryParameters;
import io.fournines.nexmark.query.QueryRegistry;

import java.util.List;
import java.util.Locale;

/** The queries by name ({@code q5} or {@code Q5}), for the CLI and the member driver. */
public final class Queries {

    /** The NEXMark queries, as the registry lists them. */
    public static final List<String> NAMES = QueryRegistry.get().queriesReading("nexmark");

    private Queries() {
    }

    /**
     * The query called {@code name} with its parameters from {@code parameters}; {@code pipeline}
     * is where a query with a side input (Q13) reads it from.
     *
     * @throws IllegalArgumentException for an unknown name, or a parameter the query cannot take
     *                                  (a window that is not a multiple of the slide)
     */
    public static NexmarkQuery<?> create(String name, Pipeline pipeline, QueryParameters parameters) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "q0", "q1", "q2" -> new SelectionQuery<>(EventSelection.of(name, parameters));
            case "q3" -> new Q3LocalItemSuggestion(parameters.personTtlMs());
            case "q4" -> new Q4AveragePriceByCategory(parameters.windowMs(), parameters.slideMs());
            case "q5" -> new Q5HotItems(parameters.windowMs(), parameters.slideMs());
            case "q6" -> new Q6AverageSellingPriceBySeller(parameters.slideMs(), parameters.personTtlMs());
            case "q7" -> new Q7HighestBid(parameters.windowMs());
            case "q8" -> new Q8MonitorNewUsers(parameters.windowMs());
            case "q13" -> new Q13BoundedSideInputJoin(pipeline, parameters.sideInputRows());
            default -> throw new IllegalArgumentException("unknown query '" + name + "'; the queries are " + String.join(", ", NAMES));
        };
    }
}
