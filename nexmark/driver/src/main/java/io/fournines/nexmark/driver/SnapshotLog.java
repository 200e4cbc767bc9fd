package io.fournines.nexmark.driver;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code snapshots.csv}: each second, the snapshots the engine committed since the last, on the
 * run's timeline. Made with the first snapshot: a run that takes none has no file.
 */
final class SnapshotLog implements SampledFile {
    static final String FILE = "snapshots.csv";
    static final String HEADER = "id,started_s,saved_s,committed_s,bytes";

    private final Path dir;
    private final EngineAdapter.Running engine;
    private CsvFile csv;

    SnapshotLog(Path dir, EngineAdapter.Running engine) {
        this.dir = dir;
        this.engine = engine;
    }

    @Override
    public void sample(long t0Nanos, double elapsedSeconds) throws IOException {
        List<SnapshotTimes> committed = new ArrayList<>();
        engine.drainCommittedSnapshots(committed::add);
        for (SnapshotTimes s : committed) {
            if (csv == null) {
                csv = CsvFile.create(dir, FILE, HEADER);
            }
            csv.row("%d,%.6f,%.6f,%.6f,%d", s.id(), (s.startedNanos() - t0Nanos) / 1e9, (s.savedNanos() - t0Nanos) / 1e9,
                    (s.committedNanos() - t0Nanos) / 1e9, s.bytes());
        }
    }

    @Override
    public void close() throws IOException {
        if (csv != null) {
            csv.close();
        }
    }
}
