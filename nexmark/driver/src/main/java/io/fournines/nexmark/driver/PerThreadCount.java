package io.fournines.nexmark.driver;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A count that many threads add to, each on a cell of its own (a plain add published with release
 * semantics, no atomic read-modify-write as a {@link java.util.concurrent.atomic.LongAdder} does),
 * read by summing the cells. A cell is the middle of an array with a cache line of padding on each
 * side, so two threads' cells never share a line.
 */
final class PerThreadCount {

    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int PADDING = 8;

    private final Queue<long[]> cells = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<long[]> mine = ThreadLocal.withInitial(() -> {
        long[] cell = new long[2 * PADDING + 1];
        cells.add(cell);
        return cell;
    });

    void increment() {
        long[] cell = mine.get();
        CELL.setRelease(cell, PADDING, (long) CELL.get(cell, PADDING) + 1);
    }

    long sum() {
        long sum = 0;
        for (long[] cell : cells) {
            sum += (long) CELL.getAcquire(cell, PADDING);
        }
        return sum;
    }
}
