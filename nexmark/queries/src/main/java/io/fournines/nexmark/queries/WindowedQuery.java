package io.fournines.nexmark.queries;

import io.fournines.nexmark.query.WindowedResult;

/** A query whose results belong to windows: its latency is measured per window, from the window's end. */
public interface WindowedQuery<R extends WindowedResult> extends NexmarkQuery<R> {
}
