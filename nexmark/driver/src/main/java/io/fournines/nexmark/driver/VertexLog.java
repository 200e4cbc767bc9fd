package io.fournines.nexmark.driver;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code graph.json}, once the engine can say what its job's graph is, and {@code vertices.csv}: per
 * second, a row per vertex of its cumulative {@link VertexCounters}. Written only for an engine that
 * reports them ({@link EngineAdapter.Running#graph()}); the dashboard's live view reads both as the
 * run plays, the report after it.
 */
final class VertexLog implements SampledFile {
    static final String GRAPH_FILE = "graph.json";
    static final String FILE = "vertices.csv";
    static final String HEADER = "time_s,vertex,items_in,items_out,sampled_us,busy_us,backpressured_us,queued_item_us,queue_room_us";

    private final Path dir;
    private final EngineAdapter.Running engine;
    private CsvFile csv;

    VertexLog(Path dir, EngineAdapter.Running engine) {
        this.dir = dir;
        this.engine = engine;
    }

    /** Nothing until the engine knows its graph. */
    @Override
    public void sample(long t0Nanos, double elapsedSeconds) throws IOException {
        if (csv == null) {
            JobGraph graph = engine.graph();
            if (graph == null) {
                return;
            }
            Path file = dir.resolve(GRAPH_FILE);
            try {
                Files.writeString(file, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(graph) + "\n");
            } catch (IOException e) {
                throw new IOException("writing " + file + ": " + e.getMessage(), e);
            }
            csv = CsvFile.create(dir, FILE, HEADER);
        }
        for (Map.Entry<String, VertexCounters> e : engine.vertexCounters().entrySet()) {
            VertexCounters c = e.getValue();
            csv.row("%.3f,%s,%d,%d,%d,%d,%d,%d,%d", elapsedSeconds, csvField(e.getKey()), c.itemsIn(), c.itemsOut(), c.sampledMicros(),
                    c.busyMicros(), c.backpressuredMicros(), c.queuedItemMicros(), c.queueRoomMicros());
        }
    }

    /** A vertex name as one CSV field (RFC 4180 quoting where it needs it). */
    private static String csvField(String name) {
        return name.contains(",") || name.contains("\"") ? "\"" + name.replace("\"", "\"\"") + "\"" : name;
    }

    @Override
    public void close() throws IOException {
        if (csv != null) {
            csv.close();
        }
    }
}
