package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;

/**
 * An engine behind the member contract; the reference engine's adapter and the peers' implement
 * it alike, and {@link DriverRun} does everything else the same way for all of them. The queries,
 * sources, guarantees and modes an engine runs are in the query registry, not here.
 */
public interface EngineAdapter {

    /** The scenario's {@code engine} value: {@code fournines}, {@code jet}, {@code flink}. */
    String name();

    /**
     * Starts the engine in this JVM, sized for the scenario; {@code dir} is the results folder (for
     * the engine's own files). The driver starts its clock after this, so engine start-up is not
     * part of the run.
     */
    Running start(Scenario scenario, Path dir) throws Exception;

    /** A running engine. Closing it (twice is harmless) cancels its job and releases everything (threads, temp files). */
    interface Running extends AutoCloseable {

        /**
         * Submits the scenario's query, ending in sinks that report to {@code run}; the future ends
         * only when the job fails (or is cancelled): a benchmark job is endless. With several jobs
         * ({@link Scenario#jobs}, on an engine whose registry entry has {@code several_jobs}) it is
         * called once for each, with the job's own share ({@link Scenario#job}) and run, into this
         * one running engine.
         */
        CompletableFuture<?> submit(Scenario scenario, RunContext run) throws Exception;

        /**
         * How long ago this member's part of the run began: more than 0 for a member that joined a
         * job already running, whose clock, warm-up and end follow the job's start.
         */
        default long joinedLateNanos() {
            return 0;
        }

        /** False when this member never took part (it joined a running job that ended first): it has no results. */
        default boolean tookPart() {
            return true;
        }

        /** The job's graph on this member, for graph.json; null while unknown, or from an engine that does not say (then no vertices.csv). */
        default JobGraph graph() {
            return null;
        }

        /** Each vertex's counters on this member now, by vertex name (with {@link #graph()}). */
        default Map<String, VertexCounters> vertexCounters() {
            return Map.of();
        }

        /** Hands {@code to} each snapshot committed on this member since the last call, oldest first (none from an engine that does not say). */
        default void drainCommittedSnapshots(Consumer<SnapshotTimes> to) {
        }

        /** The engine's own fields of member.json: its version and the settings that matter for a fair comparison. */
        void describe(ObjectNode memberJson);

        @Override
        void close() throws Exception;
    }
}
