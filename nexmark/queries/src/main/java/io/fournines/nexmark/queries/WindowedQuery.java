package io.fournines.nexmark.queries;

import io.fournines.nexmark.query.WindowedResult;

/** A query whose results belong to windows: its latency is measured per window, from the window's end. */
public interface WindowedQuery<R> extends NexmarkQuery<R> {

    /** The end of the window {@code result} belongs to: its own, for a {@link WindowedResult}. */
    default long windowEnd(R result) {
        return ((WindowedResult) result).end();
    }
}
