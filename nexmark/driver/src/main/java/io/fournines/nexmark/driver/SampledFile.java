package io.fournines.nexmark.driver;

import java.io.IOException;

/** A result file {@link RunSampler} adds to each second, beside the contract's own series (host.csv, vertices.csv, snapshots.csv). */
public interface SampledFile extends AutoCloseable {

    /** This second's rows, at {@code elapsedSeconds} on the timeline of the run that began at {@code t0Nanos}; an error names the file. */
    void sample(long t0Nanos, double elapsedSeconds) throws IOException;

    @Override
    void close() throws IOException;
}
