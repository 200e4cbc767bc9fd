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
     * {@code view} was installed here: its coordinator's commands of its term, and if this member
     * coordinates it the reports of its term, are returned to be delivered, in the order they came;
     * the others of its term or an older one are put in {@code stale}; those of a newer term wait on.
     */
    List<Command> release(View view, List<Command> stale) {
        List<Command> due = new ArrayList<>();
        for (Iterator<Command> it = held.iterator(); it.hasNext(); ) {
            Command c = it.next();
            if (c.term() > view.term()) {
                continue;
            }
            it.remove();
            boolean itsTurn = c.kind().toCoordinator() ? view.coordinator() == self : c.from() == view.coordinator();
            if (c.term() == view.term() && itsTurn) {
                due.add(c);
            } else {
                stale.add(c);
            }
        }
        return due;
    }
}
