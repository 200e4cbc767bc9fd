package io.fournines.engine.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * TEST SCAFFOLDING: members running {@link ViewAgreement} over a simulated network, on simulated
 * time, all driven by one seeded Random, so a schedule that breaks an invariant replays exactly. The
 * network loses, delays (so reorders) and duplicates messages at the rates set, and cuts links
 * (one way or both); members crash and restart with the term and vote they persisted. Each member
 * sends heartbeats and counts a member it has not heard from for the failure timeout as unreachable,
 * as {@link FailureDetector} does. Every view a member installs is checked against the invariants.
 */
final class SimulatedViewCluster {

    static final long HEARTBEAT_MILLIS = 100;
    static final long FAILURE_TIMEOUT_MILLIS = 500;
    static final long VOTE_TIMEOUT_MILLIS = 300;

    private record Event(long at, long seq, Runnable action) {
    }

    final int size;
    final Random random;
    private final Member[] members;
    private final PriorityQueue<Event> events = new PriorityQueue<>(Comparator.comparingLong(Event::at).thenComparingLong(Event::seq));
    private long now;
    private long seq;
    /** cut[from][to]: what {@code from} sends {@code to} is lost. */
    private final boolean[][] cut;
    private double lossRate;
    private double duplicateRate;
    private long maxDelayMillis = 20;
    private final Map<Long, View> viewOfTerm = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final List<String> trace = new ArrayList<>();

    SimulatedViewCluster(int size, long seed) {
        this.size = size;
        this.random = new Random(seed);
        this.cut = new boolean[size][size];
        this.members = new Member[size];
        for (int i = 0; i < size; i++) {
            members[i] = new Member(i);
            members[i].start();
        }
    }

    final class Member implements ViewAgreement.Effects {
        final int index;
        ViewAgreement agreement;
        boolean up;
        int incarnation;
        long persistedTerm;
        int persistedVote = -1;
        long highestInstalledTerm = -1;
        final long[] lastHeard = new long[size];

        Member(int index) {
            this.index = index;
        }

        void start() {
            agreement = new ViewAgreement(index, size, VOTE_TIMEOUT_MILLIS, new Random(random.nextLong()), this, persistedTerm, persistedVote);
            up = true;
            incarnation++;
            Arrays.fill(lastHeard, Long.MIN_VALUE / 2);
            int alive = incarnation;
            schedule(random.nextInt((int) HEARTBEAT_MILLIS), () -> heartbeat(alive));
        }

        private void heartbeat(int alive) {
            if (!up || incarnation != alive) {
                return;
            }
            for (int m = 0; m < size; m++) {
                if (m != index) {
                    agreement.reachable(m, now - lastHeard[m] <= FAILURE_TIMEOUT_MILLIS);
                }
            }
            agreement.tick(now);
            for (int m = 0; m < size; m++) {
                if (m != index) {
                    send(m, agreement.heartbeat());
                }
            }
            schedule(HEARTBEAT_MILLIS - 10 + random.nextInt(21), () -> heartbeat(alive));
        }

        @Override
        public void persist(long term, int votedFor) {
            persistedTerm = term;
            persistedVote = votedFor;
        }

        @Override
        public void send(int to, ViewMessage message) {
            if (cut[index][to] || random.nextDouble() < lossRate) {
                return;
            }
            int copies = random.nextDouble() < duplicateRate ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                schedule(1 + (long) (random.nextDouble() * maxDelayMillis), () -> members[to].deliver(index, message));
            }
        }

        private void deliver(int from, ViewMessage message) {
            if (!up) {
                return;
            }
            lastHeard[from] = now;
            agreement.receive(from, message);
        }

        @Override
        public void viewChanged(View view, String why) {
            trace.add(now + " ms: member " + index + ": " + (view == null ? "paused" : "installed " + view) + " (" + why + ")");
            if (view == null) {
                return;
            }
            View earlier = viewOfTerm.putIfAbsent(view.term(), view);
            if (earlier != null && (earlier.coordinator() != view.coordinator() || !earlier.members().equals(view.members()))) {
                violations.add("two views of term " + view.term() + ": " + earlier + " and " + view + " (member " + index + ")");
            }
            if (view.members().cardinality() < size / 2 + 1 || !view.includes(view.coordinator()) || !view.includes(index)) {
                violations.add("member " + index + " installed " + view + ": not a majority, or without its coordinator or itself");
            }
            if (view.term() <= highestInstalledTerm) {
                violations.add("member " + index + " installed " + view + " after a view of term " + highestInstalledTerm);
            }
            highestInstalledTerm = view.term();
        }
    }

    private void schedule(long afterMillis, Runnable action) {
        events.add(new Event(now + afterMillis, seq++, action));
    }

    /** Runs the simulation for {@code millis} of simulated time. */
    void run(long millis) {
        long end = now + millis;
        while (!events.isEmpty() && events.peek().at() <= end) {
            Event e = events.poll();
            now = e.at();
            e.action().run();
        }
        now = end;
    }

    long now() {
        return now;
    }

    View viewOf(int member) {
        return members[member].up ? members[member].agreement.view() : null;
    }

    boolean isUp(int member) {
        return members[member].up;
    }

    void crash(int member) {
        trace.add(now + " ms: member " + member + " crashed");
        members[member].up = false;
    }

    void restart(int member) {
        trace.add(now + " ms: member " + member + " restarted");
        members[member].start();
    }

    /** Links from every member in {@code from} to every member in {@code to} lose everything (or deliver again). */
    void cut(BitSet from, BitSet to, boolean lose) {
        for (int a = from.nextSetBit(0); a >= 0; a = from.nextSetBit(a + 1)) {
            for (int b = to.nextSetBit(0); b >= 0; b = to.nextSetBit(b + 1)) {
                if (a != b) {
                    cut[a][b] = lose;
                }
            }
        }
        trace.add(now + " ms: links " + from + " -> " + to + (lose ? " cut" : " restored"));
    }

    /** Both ways between the two sides. */
    void partition(BitSet side) {
        BitSet other = new BitSet();
        other.set(0, size);
        other.andNot(side);
        heal();
        cut(side, other, true);
        cut(other, side, true);
    }

    void heal() {
        for (boolean[] row : cut) {
            Arrays.fill(row, false);
        }
        trace.add(now + " ms: every link restored");
    }

    void conditions(double lossRate, double duplicateRate, long maxDelayMillis) {
        this.lossRate = lossRate;
        this.duplicateRate = duplicateRate;
        this.maxDelayMillis = maxDelayMillis;
        trace.add(now + " ms: loss " + lossRate + ", duplicates " + duplicateRate + ", delay up to " + maxDelayMillis + " ms");
    }

    List<String> violations() {
        return violations;
    }

    /** What happened, for the message of a failed assertion. */
    String trace() {
        return String.join("\n", trace.subList(Math.max(0, trace.size() - 60), trace.size()));
    }
}
