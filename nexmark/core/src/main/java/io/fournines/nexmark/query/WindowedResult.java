package io.fournines.nexmark.query;

/** A result of the window {@code [start, end)}: its latency is measured from {@code end}. */
public interface WindowedResult {

    long start();

    long end();
}
