package io.fournines.nexmark.fournines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a test member stops dead so that the test can kill -9 it at a chosen moment: after its sink
 * took N results ({@code processing:N}), in the middle of a snapshot, between saving its state and
 * the cluster's commit ({@code snapshot:N}), or just after the cluster committed one, before its
 * sink published the transaction of it ({@code committed:N}); or {@code never}. N counts over the
 * member's sink instances: each snapshot counts once per instance. Prefixed {@code coordinator/},
 * it counts only while the given condition holds (the driver's: this member coordinates and no
 * member froze yet; the majority elects the coordinator, so a test that kills it arms every member
 * this way). Prefixed {@code fail/}, the member does not stop there but throws, once: a
 * processor failure, which a job with a guarantee restarts from. The member writes a marker file, then the thread that got there parks for good:
 * the member can no longer finish the snapshot or process anything, but its connections stay up
 * until the kill.
 */
final class FreezePoint {

    private final String moment;
    private final long at;
    private final Path marker;
    private final BooleanSupplier armed;
    private final boolean fail;
    private final AtomicLong count = new AtomicLong();

    private FreezePoint(String moment, long at, Path marker, BooleanSupplier armed, boolean fail) {
        this.fail = fail;
        this.moment = moment;
        this.at = at;
        this.marker = marker;
        this.armed = armed;
    }

    static FreezePoint parse(String spec, Path marker, BooleanSupplier coordinating) {
        if (spec.equals("never")) {
            return new FreezePoint("never", Long.MAX_VALUE, marker, () -> false, false);
        }
        boolean coordinatorOnly = spec.startsWith("coordinator/");
        boolean fail = spec.startsWith("fail/");
        String[] parts = spec.substring(coordinatorOnly ? "coordinator/".length() : fail ? "fail/".length() : 0).split(":");
        if (parts.length != 2 || !parts[0].matches("processing|snapshot|committed")) {
            throw new IllegalArgumentException("freeze point '" + spec
                    + "': expected never or [coordinator/ or fail/]processing:N, snapshot:N or committed:N");
        }
        return new FreezePoint(parts[0], Long.parseLong(parts[1]), marker, coordinatorOnly ? coordinating : () -> true, fail);
    }

    void result() {
        reached("processing");
    }

    void snapshotSaved() {
        reached("snapshot");
    }

    void snapshotCommitted() {
        reached("committed");
    }

    private void reached(String what) {
        if (!what.equals(moment) || !armed.getAsBoolean() || count.incrementAndGet() != at) {
            return;
        }
        try {
            Files.writeString(marker, moment + ":" + at);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (fail) {
            throw new IllegalStateException("a failure injected at " + moment + ":" + at);
        }
        while (true) {
            LockSupport.park(this);
        }
    }
}
