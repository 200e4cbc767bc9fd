package io.fournines.nexmark.query;

import io.fournines.nexmark.model.Event;

/** Q0: every event unchanged; measures what the pipeline itself costs. */
public final class Q0Passthrough implements EventSelection<Event> {

    @Override
    public boolean selects(Event event) {
        return true;
    }

    @Override
    public Event result(Event event) {
        return event;
    }
}
