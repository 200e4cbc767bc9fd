package io.fournines.engine.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The coordinator's commands, and the reports to a coordinator, that came before the view they were
 * sent in. Views travel on the view plane and control messages on the data plane ({@link Plane}):
 * the two connections race, and so do the threads that act on them, so a command of a newer term
 * than this member's view waits here for that view, and counts if the view names its sender
 * coordinator; a report to the coordinator of a newer term ({@link ControlKind#toCoordinator}) counts
 * if that view names this member coordinator (a member reports as soon as it acts on the view its
 * coordinator installed, which can be before the coordinator's own data thread acts on it).
 * Confined to the data I/O thread.
 */
final class ControlAheadOfView {

    /** A command (or report) sent in the view of {@code term}. */
    record Command(int from, long term, ControlKind kind, long jobId, String text) {
    }

    /** Commands kept at most: a coordinator sends a few per job, and one whose view never comes here is dropped. */
    static final int MAX_HELD = 1024;

    private final ArrayDeque<Command> held = new ArrayDeque<>();
    private final int self;

    ControlAheadOfView(int self) {
        this.self = self;
    }

    /** Keeps {@code command}; returns the oldest one dropped to make room for it, or null. */
    Command hold(Command command) {
        Command dropped = held.size() == MAX_HELD ? held.pollFirst() : null;
        held.addLast(command);
        return dropped;
    }

    /**
     * Whether a command sent in the view of {@code term} counts in {@code view}: its sender coordinates
     * {@code view}, and sent it in that view or an earlier one. Views and commands travel on different
     * connections, so a member can install a newer view of the same coordinator before a command the
     * coordinator sent in an older one arrives (a member started again was taken in at term 3 and had
     * installed term 5 when the ADOPT and RESTART of term 3 came: it ignored them, and the job's attempt
     * waited for it for good). The coordinator still coordinates, and its commands are ordered by
     * their connection and by the attempts they name; a command of another member's view stays stale.
     */
    static boolean fromThisCoordinator(int from, long term, View view) {
        return from == view.coordinator() && term <= view.term();
    }

    /**
     * {@code view} was installed here: its coordinator's commands of its term or an earlier one ({@link
     * #fromThisCoordinator}), and if this member coordinates it the reports of its term, are returned to
     * be delivered, in the order they came; the others of its term or an older one are put in {@code
     * stale}; those of a newer term wait on.
     */
    List<Command> release(View view, List<Command> stale) {
        List<Command> due = new ArrayList<>();
        for (Iterator<Command> it = held.iterator(); it.hasNext(); ) {
            Command c = it.next();
            if (c.term() > view.term()) {
                continue;
            }
            it.remove();
            boolean counts = c.kind().toCoordinator() ? c.term() == view.term() && view.coordinator() == self
                    : fromThisCoordinator(c.from(), c.term(), view);
            if (counts) {
                due.add(c);
            } else {
                stale.add(c);
            }
        }
        return due;
    }
}
