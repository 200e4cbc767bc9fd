package io.fournines.nexmark.driver;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A result file's output stream that keeps its first write error. PrintStream and PrintWriter
 * (which HdrHistogram's log writer and the CSV rows write through) swallow errors; {@link #check}
 * then fails the run naming the file and the cause, so a full disk can never pass for a good run.
 */
public final class CheckedFile extends FilterOutputStream {

    private final Path path;
    private volatile IOException failure;

    private CheckedFile(Path path, OutputStream out) {
        super(out);
        this.path = path;
    }

    /** Creates (or truncates) {@code path}. */
    public static CheckedFile create(Path path) throws IOException {
        try {
            return new CheckedFile(path, Files.newOutputStream(path));
        } catch (IOException e) {
            throw new IOException("cannot create " + path + ": " + e.getMessage(), e);
        }
    }

    /** Throws the first error any write, flush or close of this file met, naming the file. */
    public void check() throws IOException {
        IOException e = failure;
        if (e != null) {
            throw new IOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private IOException failed(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
