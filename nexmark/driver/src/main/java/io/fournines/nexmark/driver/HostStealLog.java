package io.fournines.nexmark.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code host.csv}: CPU time the hypervisor gave to other guests while this host's CPUs had work (the
 * "steal" column of the aggregate {@code cpu} line of /proc/stat, summed over the host's CPUs),
 * cumulative from the member's start. A virtual machine whose neighbours are busy loses whole
 * milliseconds this way; they show in a run as stalls the engine did not cause, and this file lets a
 * report and the rate search tell them apart.
 */
public final class HostStealLog implements SampledFile {
    public static final String FILE = "host.csv";
    public static final String HEADER = "time_s,steal_seconds";
    /** /proc/stat counts in USER_HZ ticks, which Linux fixes at 100 a second for user space. */
    private static final double SECONDS_PER_TICK = 0.01;
    private static final int STEAL_FIELD = 8;

    private final Path stat;
    private final long ticksAtStart;
    private final CsvFile csv;

    private HostStealLog(Path stat, long ticksAtStart, CsvFile csv) {
        this.stat = stat;
        this.ticksAtStart = ticksAtStart;
        this.csv = csv;
    }

    /** {@code dir/host.csv} from /proc/stat; null where that cannot be read (not Linux): the run then has no host.csv. */
    public static HostStealLog openIfAvailable(Path dir) throws IOException {
        return openIfAvailable(dir, Path.of("/proc/stat"));
    }

    static HostStealLog openIfAvailable(Path dir, Path stat) throws IOException {
        long ticks;
        try {
            ticks = ticks(stat);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new HostStealLog(stat, ticks, CsvFile.create(dir, FILE, HEADER));
    }

    @Override
    public void sample(long t0Nanos, double elapsedSeconds) throws IOException {
        long ticks;
        try {
            ticks = ticks(stat);
        } catch (IOException e) {
            throw new IOException("reading the host's stolen CPU time for " + FILE + ": " + e.getMessage(), e);
        }
        csv.row("%.3f,%.2f", elapsedSeconds, (ticks - ticksAtStart) * SECONDS_PER_TICK);
    }

    private static long ticks(Path stat) throws IOException {
        List<String> lines = Files.readAllLines(stat);
        String[] fields = lines.isEmpty() ? new String[0] : lines.get(0).trim().split("\\s+");
        if (fields.length <= STEAL_FIELD || !fields[0].equals("cpu")) {
            throw new IOException(stat + ": the first line has no steal column: " + (lines.isEmpty() ? "(empty)" : lines.get(0)));
        }
        return Long.parseLong(fields[STEAL_FIELD]);
    }

    @Override
    public void close() throws IOException {
        csv.close();
    }
}
