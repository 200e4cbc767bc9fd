package io.fournines.nexmark.driver.latency;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The intervals of an .hlog file as HdrHistogram's own reader sees them. */
final class HlogContents {
    private HlogContents() {
    }

    static List<Histogram> intervals(Path file) {
        List<Histogram> intervals = new ArrayList<>();
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                intervals.add((Histogram) next);
            }
            reader.close();
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException(e);
        }
        return intervals;
    }
}
