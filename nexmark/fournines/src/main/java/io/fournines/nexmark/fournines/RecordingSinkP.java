package io.fournines.nexmark.fournines;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Records every result of a job, a line each, in files of one directory: the external system whose
 * content {@code chaos} and the kill tests check, which a killed member cannot take with it.
 *
 * <p>Transactional (for exactly-once): the results since the last snapshot are prepared as one file
 * ({@code ID.pending}) when a snapshot is saved, the snapshot lists it, and it is published by
 * renaming it to {@code ID.committed} once the cluster committed the snapshot. A restore publishes
 * the files its snapshot lists, whoever prepared them (publishing twice does nothing); a file no
 * committed snapshot lists stays pending, never published. A snapshot that failed keeps its files
 * for the next one to publish.
 *
 * <p>Appending (for at-least-once): each instance appends to a file of its own ({@code ID.jsonl}),
 * flushed at every snapshot, so what came before a snapshot outlives a kill and what came after is
 * written again by the replay.
 */
final class RecordingSinkP extends AbstractProcessor {

    static final String PUBLISHED = ".committed";
    static final String APPENDED = ".jsonl";

    private final Path dir;
    private final boolean transactional;
    private final Function<Object, String> line;
    private final ChaosPoint chaos;
    private final List<String> open = new ArrayList<>();
    private final List<String> preparedNotCommitted = new ArrayList<>();
    private BufferedWriter appending;
    private String owner;

    /** @param line a result as its line */
    RecordingSinkP(Path dir, boolean transactional, Function<Object, String> line, ChaosPoint chaos) {
        // Absolute: a snapshot lists the prepared files, and a member restoring it may run elsewhere.
        this.dir = dir.toAbsolutePath();
        this.transactional = transactional;
        this.line = line;
        this.chaos = chaos;
    }

    /** Every result published or appended in {@code dir}, a line each, sorted. */
    static List<String> recorded(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(PUBLISHED) || f.toString().endsWith(APPENDED)).toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines.stream().sorted().toList();
    }

    @Override
    protected void init(Context context) throws IOException {
        owner = context.vertexName() + "#" + context.memberIndex() + "#" + context.processorIndex();
        Files.createDirectories(dir);
        if (!transactional) {
            appending = Files.newBufferedWriter(dir.resolve(UUID.randomUUID() + APPENDED), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE_NEW);
        }
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        String text = line.apply(item);
        if (transactional) {
            open.add(text);
        } else {
            write(() -> {
                appending.write(text);
                appending.newLine();
            });
        }
        chaos.result();
        return true;
    }

    @Override
    public boolean snapshotCommitPrepare() {
        if (!transactional) {
            write(appending::flush);
            chaos.snapshotSaved();
            return true;
        }
        if (!open.isEmpty() || preparedNotCommitted.isEmpty()) {
            String txn = dir.resolve(UUID.randomUUID() + ".pending").toString();
            write(() -> {
                Path partial = Path.of(txn + ".partial");
                Files.write(partial, open);
                Files.move(partial, Path.of(txn), StandardCopyOption.ATOMIC_MOVE);
            });
            open.clear();
            preparedNotCommitted.add(txn);
        }
        chaos.snapshotSaved();
        return tryEmitToSnapshot(new BroadcastKey(owner), new ArrayList<>(preparedNotCommitted));
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (success) {
            chaos.snapshotCommitted();
            preparedNotCommitted.forEach(RecordingSinkP::publish);
            preparedNotCommitted.clear();
        }
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void restoreFromSnapshot(Object key, Object value) {
        ((List<String>) value).forEach(RecordingSinkP::publish);
    }

    @Override
    public boolean complete() {
        if (appending != null) {
            write(appending::flush);
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        if (appending != null) {
            appending.close();
        }
    }

    /** A prepared file renamed to its published name, unless another instance (or this one before a restart) did. */
    private static void publish(String pending) {
        try {
            Files.move(Path.of(pending), Path.of(pending.substring(0, pending.length() - ".pending".length()) + PUBLISHED),
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException alreadyPublished) {
            // Published already.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface FileWork {
        void run() throws IOException;
    }

    private static void write(FileWork work) {
        try {
            work.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
