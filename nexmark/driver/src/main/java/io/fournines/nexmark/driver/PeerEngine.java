package io.fournines.nexmark.driver;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A peer engine behind the member contract: the queries it runs, its cluster, its job. */
public interface PeerEngine {

    /** The scenario's {@code engine} value: {@code jet}, {@code flink}. */
    String name();

    /** The queries this adapter runs; the driver refuses others before anything starts. */
    Set<String> queries();

    /**
     * Starts the engine in this JVM, sized for the scenario; {@code dir} is the results folder (for
     * the engine's own files). The driver starts its clock after this, so engine start-up is not
     * part of the run.
     */
    Cluster start(DriverScenario scenario, Path dir) throws Exception;

    /** A running engine. Closing it cancels its job and releases everything (threads, temp files). */
    interface Cluster extends AutoCloseable {

        /** Submits the scenario's query, fed by {@link PacedSlice}s and ending in sinks that report to {@code run}. */
        CompletableFuture<?> submit(DriverScenario scenario, RunContext run) throws Exception;

        /** Engine facts for member.json: version and the settings that matter for a fair comparison. */
        Map<String, Object> facts();

        @Override
        void close() throws Exception;
    }
}
