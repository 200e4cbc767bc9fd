package io.fournines.nexmark.fournines;

import io.fournines.engine.core.AbstractProcessor;
import io.fournines.engine.core.BroadcastKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A sink with two-phase commit into a directory, the external system of the kill tests: a killed
 * member cannot take what it published with it. Results since the last snapshot are prepared as
 * one transaction file ({@code ID.pending}) when a snapshot is saved, and published by renaming it
 * to {@code ID.committed} once the cluster committed the snapshot. A restore publishes the
 * transactions its snapshot prepared, whoever prepared them (publishing twice does nothing); a
 * transaction no committed snapshot names stays pending, never published.
 */
final class TransactionalFileSinkP extends AbstractProcessor {

    private final Path dir;
    private final FreezePoint freeze;
    private final List<Object> open = new ArrayList<>();
    private final List<String> preparedNotCommitted = new ArrayList<>();
    private String owner;

    TransactionalFileSinkP(Path dir, FreezePoint freeze) {
        this.dir = dir;
        this.freeze = freeze;
    }

    /** Every published result, one a line, sorted. */
    static List<String> published(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".committed")).toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines.stream().sorted().toList();
    }

    @Override
    protected void init(Context context) {
        owner = context.vertexName() + "#" + context.memberIndex() + "#" + context.processorIndex();
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        open.add(item);
        freeze.result();
        return true;
    }

    @Override
    public boolean snapshotCommitPrepare() {
        if (!open.isEmpty() || preparedNotCommitted.isEmpty()) {
            String txn = UUID.randomUUID().toString();
            write(dir.resolve(txn + ".pending"), open);
            open.clear();
            preparedNotCommitted.add(txn);
        }
        freeze.snapshotSaved();
        return tryEmitToSnapshot(new BroadcastKey(owner), new ArrayList<>(preparedNotCommitted));
    }

    @Override
    public boolean snapshotCommitFinish(boolean success) {
        if (success) {
            freeze.snapshotCommitted();
            preparedNotCommitted.forEach(this::publish);
        }
        preparedNotCommitted.clear();
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void restoreFromSnapshot(Object key, Object value) {
        ((List<String>) value).forEach(this::publish);
    }

    private void publish(String txn) {
        try {
            Files.move(dir.resolve(txn + ".pending"), dir.resolve(txn + ".committed"), StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException alreadyPublished) {
            // Another instance restoring the same snapshot, or this one before a restart, published it.
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, List<Object> items) {
        try {
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.write(partial, items.stream().map(Object::toString).toList());
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
