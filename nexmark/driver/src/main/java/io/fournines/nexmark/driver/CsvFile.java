package io.fournines.nexmark.driver;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/** One of a run's CSV series (throughput.csv, cpu.csv): a header, then a row each second, each flushed and checked. */
public final class CsvFile implements AutoCloseable {

    private final CheckedFile file;
    private final PrintWriter out;

    private CsvFile(CheckedFile file) {
        this.file = file;
        this.out = new PrintWriter(new OutputStreamWriter(new BufferedOutputStream(file), StandardCharsets.UTF_8));
    }

    /** Creates {@code dir/name} with its header line. */
    public static CsvFile create(Path dir, String name, String header) throws IOException {
        CsvFile csv = new CsvFile(CheckedFile.create(dir.resolve(name)));
        csv.row("%s", header);
        return csv;
    }

    /** Writes one line and flushes it: a crash loses no second already sampled. */
    public void row(String format, Object... values) throws IOException {
        out.printf(Locale.ROOT, format + "%n", values);
        out.flush();
        file.check();
    }

    @Override
    public void close() throws IOException {
        out.close();
        file.check();
    }
}
