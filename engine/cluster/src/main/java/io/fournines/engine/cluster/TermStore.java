package io.fournines.engine.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Where a member keeps its term and its vote in that term ({@link ViewAgreement}) across restarts
 * of its process: a member that forgot its vote could vote twice in one term and let two
 * coordinators win it.
 */
public interface TermStore {

    /** The term and vote last saved; term 0 and no vote ({@code -1}) if none was. */
    Saved load();

    /** Saves both, durably, before the caller sends anything that depends on them. */
    void save(long term, int votedFor);

    /** A term and the member voted for in it, or {@code -1}. */
    record Saved(long term, int votedFor) {
    }

    /**
     * Kept only in this process: for members in one JVM (tests, benchmarks) that never restart
     * with their index.
     */
    static TermStore inMemory() {
        return new TermStore() {
            private Saved saved = new Saved(0, -1);

            @Override
            public synchronized Saved load() {
                return saved;
            }

            @Override
            public synchronized void save(long term, int votedFor) {
                saved = new Saved(term, votedFor);
            }
        };
    }

    /**
     * Kept in {@code file} ({@code "TERM VOTED_FOR\n"}), written to a temporary file, forced to
     * disk and moved over the old one, so a crash leaves the old pair or the new one.
     *
     * @throws IllegalArgumentException if the file exists but does not hold such a pair (it names
     *                                  the file and what it holds): a member must not start with a
     *                                  vote it cannot read
     */
    static TermStore inFile(Path file) {
        Saved initial = read(file);
        return new TermStore() {
            private Saved saved = initial;

            @Override
            public synchronized Saved load() {
                return saved;
            }

            @Override
            public synchronized void save(long term, int votedFor) {
                Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
                byte[] bytes = (term + " " + votedFor + "\n").getBytes(StandardCharsets.US_ASCII);
                try {
                    Files.createDirectories(file.toAbsolutePath().getParent());
                    try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)) {
                        out.write(ByteBuffer.wrap(bytes));
                        out.force(true);
                    }
                    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot save this member's term and vote in " + file + ": " + e.getMessage(), e);
                }
                saved = new Saved(term, votedFor);
            }
        };
    }

    private static Saved read(Path file) {
        if (!Files.exists(file)) {
            return new Saved(0, -1);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read this member's term and vote from " + file + ": " + e.getMessage(), e);
        }
        String[] fields = text.split(" ");
        try {
            if (fields.length == 2) {
                long term = Long.parseLong(fields[0]);
                int votedFor = Integer.parseInt(fields[1]);
                if (term >= 0 && votedFor >= -1) {
                    return new Saved(term, votedFor);
                }
            }
        } catch (NumberFormatException e) {
            // Reported below with the rest.
        }
        throw new IllegalArgumentException(file + ": must hold a term and the member voted for in it (\"TERM VOTED_FOR\"); holds \""
                + text + "\". Remove it only if no other process of this member index ran since it was written.");
    }
}
