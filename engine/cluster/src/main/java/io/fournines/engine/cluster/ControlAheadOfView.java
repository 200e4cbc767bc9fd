package io.fournines.engine.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The coordinator's commands that came before the view they were sent in. A coordinator installs
 * its view on the view plane, then sends its commands on the data plane ({@link Plane}): the two
 * connections race, so a command of a newer term than this member's view waits here for that view,
 * and counts if the view names its sender coordinator. Confined to the data I/O thread.
 */
final class ControlAheadOfView {

    /** A command the coordinator of {@code term} sent. */
    record Command(int from, long term, ControlKind kind, long jobId, String text) {
    }

    /** Commands kept at most: a coordinator sends a few per job, and one whose view never comes here is dropped. */
    static final int MAX_HELD = 1024;

    private final ArrayDeque<Command> held = new ArrayDeque<>();

    /** Keeps {@code command}; returns the oldest one dropped to make room for it, or null. */
    Command hold(Command command) {
        Command dropped = held.size() == MAX_HELD ? held.pollFirst() : null;
        held.addLast(command);
        return dropped;
    }

    /**
     * {@code view} was installed here: its coordinator's commands of its term are returned to be
     * delivered, in the order they came; those of its term or an older one from another member are
     * put in {@code stale}; those of a newer term wait on.
     */
    List<Command> release(View view, List<Command> stale) {
        List<Command> due = new ArrayList<>();
        for (Iterator<Command> it = held.iterator(); it.hasNext(); ) {
            Command c = it.next();
            if (c.term() > view.term()) {
                continue;
            }
            it.remove();
            if (c.term() == view.term() && c.from() == view.coordinator()) {
                due.add(c);
            } else {
                stale.add(c);
            }
        }
        return due;
    }
}
