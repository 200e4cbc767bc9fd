package io.fournines.engine.execution;

import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * It shows which tasklets it serves and which one it is running, for the {@link TaskletSampler}.
 */
final class Worker implements Runnable {

    private static final VarHandle RUNNING;

    static {
        try {
            RUNNING = MethodHandles.lookup().findVarHandle(Worker.class, "running", Tasklet.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Queue<Tasklet> incoming = new ConcurrentLinkedQueue<>();
    private final List<Tasklet> tasklets = new ArrayList<>();
    private final WorkerParker parker = new WorkerParker();
    private final IdleStrategy idleStrategy;
    private final boolean dedicated;
    private volatile boolean shutdown;
    /** The tasklets as of the last change, for the sampler: the list itself is the worker's alone. */
    private volatile Tasklet[] serving = new Tasklet[0];
    /** The tasklet in its call now, null between rounds; written opaque (a plain store on x86), read racily. */
    @SuppressWarnings("unused") // accessed through RUNNING
    private Tasklet running;

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

    /** From any thread: the tasklets this worker serves. */
    Tasklet[] serving() {
        return serving;
    }

    /** From any thread: the tasklet being called now, or null; a sample, not a synchronised read. */
    Tasklet runningNow() {
        return (Tasklet) RUNNING.getOpaque(this);
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
        boolean took = false;
        for (Tasklet t; (t = incoming.poll()) != null; ) {
            tasklets.add(t);
            took = true;
        }
        if (took) {
            publishServing();
        }
    }

    private void publishServing() {
        serving = tasklets.toArray(new Tasklet[0]);
    }

    /** One call to every tasklet; removes the finished ones. Returns whether any made progress. */
    private boolean runRound() {
        boolean progress = false;
        for (int i = 0; i < tasklets.size(); ) {
            Tasklet t = tasklets.get(i);
            RUNNING.setOpaque(this, t);
            ProgressState state;
            try {
                state = t.call();
            } catch (Throwable e) {
                t.fail(e);
                state = ProgressState.DONE;
            }
            if (state == ProgressState.DONE) {
                tasklets.remove(i);
                publishServing();
                t.close();
                progress = true;
            } else {
                progress |= state == ProgressState.MADE_PROGRESS;
                i++;
            }
        }
        RUNNING.setOpaque(this, null);
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
