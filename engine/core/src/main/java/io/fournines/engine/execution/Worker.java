package io.fournines.engine.execution;

import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that loops over its tasklets round-robin, calling each once per round. After a round
 * without progress it idles as its {@link Idling} says (by default {@link DeadlineParking}: parks
 * with exponential backoff, cut short by tasklet deadlines and by producers that hand it data).
 * With no tasklets at all it parks until some arrive.
 *
 * <p>A cooperative worker serves many tasklets; a non-cooperative tasklet gets a worker of its own.
 */
final class Worker implements Runnable {

    private final String name;
    private final Queue<Tasklet> incoming = new ConcurrentLinkedQueue<>();
    private final List<Tasklet> tasklets = new ArrayList<>();
    private final WorkerParker parker = new WorkerParker();
    private final IdleStrategy idleStrategy;
    private final boolean dedicated;
    private volatile boolean shutdown;

    /** A dedicated worker serves one non-cooperative tasklet and ends with it. */
    Worker(String name, Idling idling, long minParkNanos, long maxParkNanos, boolean dedicated) {
        this.name = name;
        this.idleStrategy = idling.newStrategy(parker, this::earliestDeadline, minParkNanos, maxParkNanos);
        this.dedicated = dedicated;
    }

    WorkerParker parker() {
        return parker;
    }

    Thread start() {
        Thread thread = new Thread(this, name);
        thread.setDaemon(true);
        parker.bindTo(thread);
        thread.start();
        return thread;
    }

    void add(Tasklet tasklet) {
        incoming.add(tasklet);
        parker.wake();
    }

    void shutdown() {
        shutdown = true;
        parker.wake();
    }

    @Override
    public void run() {
        while (!shutdown) {
            takeIncoming();
            if (tasklets.isEmpty()) {
                if (dedicated) {
                    return;
                }
                LockSupport.park(this);
                continue;
            }
            idleStrategy.idle(runRound() ? 1 : 0);
        }
        takeIncoming();
        for (Tasklet t : tasklets) {
            t.fail(new IllegalStateException("the engine was closed while the job was running"));
            t.close();
        }
    }

    private void takeIncoming() {
        for (Tasklet t; (t = incoming.poll()) != null; ) {
            tasklets.add(t);
        }
    }

    /** One call to every tasklet; removes the finished ones. Returns whether any made progress. */
    private boolean runRound() {
        boolean progress = false;
        for (int i = 0; i < tasklets.size(); ) {
            Tasklet t = tasklets.get(i);
            ProgressState state;
            try {
                state = t.call();
            } catch (Throwable e) {
                t.fail(e);
                state = ProgressState.DONE;
            }
            if (state == ProgressState.DONE) {
                tasklets.remove(i);
                t.close();
                progress = true;
            } else {
                progress |= state == ProgressState.MADE_PROGRESS;
                i++;
            }
        }
        return progress;
    }

    private long earliestDeadline() {
        long earliest = Long.MAX_VALUE;
        for (Tasklet t : tasklets) {
            earliest = Math.min(earliest, t.nextDeadlineNanos());
        }
        return earliest;
    }
}
