package io.fournines.nexmark.query.reference;

import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.query.QueryParameters;

import java.util.List;
import java.util.Locale;

/** The reference computation of a query by name: the oracle tests and {@code nexmark query --reference} check an engine's results against. */
public final class References {

    private References() {
    }

    /** True when {@link #run} has a reference computation for query {@code name}. */
    public static boolean covers(String name) {
        return List.of("q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8").contains(name.toLowerCase(Locale.ROOT));
    }

    /** What query {@code name} answers for {@code events} with {@code parameters}; Q13 (side input) is not here. */
    public static List<?> run(String name, List<Event> events, QueryParameters parameters) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "q0" -> Q0Reference.run(events);
            case "q1" -> Q1Reference.run(events);
            case "q2" -> Q2Reference.run(events, parameters.auctionSkip());
            case "q3" -> Q3Reference.run(events);
            case "q4" -> Q4Reference.run(events, parameters.windowMs(), parameters.slideMs());
            case "q5" -> Q5Reference.run(events, parameters.windowMs(), parameters.slideMs());
            case "q6" -> Q6Reference.run(events);
            case "q7" -> Q7Reference.run(events, parameters.windowMs());
            case "q8" -> Q8Reference.run(events, parameters.windowMs());
            default -> throw new IllegalArgumentException("no reference computation by name for " + name);
        };
    }
}
