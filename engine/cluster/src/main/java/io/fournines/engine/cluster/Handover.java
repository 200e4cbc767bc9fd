package io.fournines.engine.cluster;

import io.fournines.engine.snapshot.SnapshotStore;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A coordinator taking over a job another coordinator directed learns from the job's members the
 * latest snapshot any of them knows was decided committed ({@link ControlKind#RUNNING}). A
 * coordinator that died between its decision messages left some members knowing snapshot n
 * committed and others n-1; if any member published n's output, all had recorded the decision
 * ({@link ClusterSnapshots}), so the job restarts from n and its output comes once. The handover
 * ends when every member it awaits has reported, or when the coordinator stops waiting. Not
 * thread-safe.
 */
final class Handover {

    /** What a member running the job reports: its attempt, the attempt's members, and the latest snapshot it knows was decided committed, with its writers. */
    record Report(int attempt, int[] members, long committedId, int[] writers) {

        /** As sent: "attempt members committed writers", lists comma-separated, "-" for none. */
        String text() {
            return attempt + " " + list(members) + " " + committedId + " " + list(writers);
        }

        static Report parse(String text) {
            String[] f = text.split(" ");
            if (f.length != 4) {
                throw new IllegalArgumentException("a job report is \"attempt members committed writers\"; got \"" + text + "\"");
            }
            return new Report(Integer.parseInt(f[0]), parseList(f[1]), Long.parseLong(f[2]), parseList(f[3]));
        }

        private static String list(int[] members) {
            return members.length == 0 ? "-" : Arrays.stream(members).mapToObj(Integer::toString).collect(Collectors.joining(","));
        }

        private static int[] parseList(String list) {
            return list.equals("-") ? new int[0] : Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
        }
    }

    private final Set<Integer> awaited = new HashSet<>();
    private Report latest;

    /** Awaits reports from {@code members}; {@code own} is this coordinator's, or null if it does not run the job. */
    Handover(int[] members, Report own) {
        Arrays.stream(members).forEach(awaited::add);
        latest = own;
    }

    /** {@code member} reported; true once every awaited member has. */
    boolean add(int member, Report report) {
        awaited.remove(member);
        if (latest == null || report.committedId() > latest.committedId()) {
            latest = report;
        }
        return awaited.isEmpty();
    }

    /** The members that have not reported yet. */
    Set<Integer> missing() {
        return Set.copyOf(awaited);
    }

    /** The report naming the latest committed snapshot so far ({@link SnapshotStore#NONE} in it if none committed), or null if none came. */
    Report latest() {
        return latest;
    }
}
