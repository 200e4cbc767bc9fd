package io.fournines.engine.cluster;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;

/**
 * Who is in the cluster, as this member sees it: which members are lost and why, and how old each
 * is, which makes the oldest live member the coordinator. Age is the time in the cluster: the
 * members there from the start come first, by index, then those that joined again, by when; so a
 * returning member 0 does not take the coordinator's role back from a member that holds the jobs'
 * state. No I/O: {@link Cluster} tells it what the connections say. Thread-safe.
 */
final class Membership {

    /** What a member's new, authenticated connection means. */
    enum Admission {
        /** Refused: the member has a live connection already. */
        REFUSED,
        /** A member joining the cluster as it forms, or one this member had only counted lost because it was paused itself. */
        JOINED,
        /** A lost member back: a new process with its index. */
        JOINED_AGAIN
    }

    private final int self;
    private final AtomicReferenceArray<String> lost;
    /** By member, this one included: 0 for a member there since the cluster formed, else when (epoch ms) it joined again. */
    private final AtomicLongArray joinedAgainAtMillis;
    /** Members counted lost only because this one was dropped after a pause: they never left, so reaching them again is no join of theirs. */
    private final AtomicIntegerArray lostByOwnPause;

    Membership(int self, int size) {
        this.self = self;
        this.lost = new AtomicReferenceArray<>(size);
        this.joinedAgainAtMillis = new AtomicLongArray(size);
        this.lostByOwnPause = new AtomicIntegerArray(size);
    }

    int size() {
        return lost.length();
    }

    /** The oldest live member: it plans and coordinates jobs. */
    int coordinator() {
        int oldest = self;
        for (int m = 0; m < size(); m++) {
            if ((m == self || lost.get(m) == null) && olderThan(m, oldest)) {
                oldest = m;
            }
        }
        return oldest;
    }

    private boolean olderThan(int a, int b) {
        long joinedA = joinedAgainAtMillis.get(a);
        long joinedB = joinedAgainAtMillis.get(b);
        return joinedA != joinedB ? joinedA < joinedB : a < b;
    }

    /** Why {@code member} was lost, or null while it is alive. */
    String lostCause(int member) {
        return lost.get(member);
    }

    /** {@code member} is lost for {@code cause}; false if it was already. */
    boolean lose(int member, String cause) {
        return lost.compareAndSet(member, null, cause);
    }

    /**
     * This member was paused past the failure timeout: the others have dropped it, so it counts every
     * member it is {@code connected} to lost (their silence was its own) and is younger now than
     * those that stayed.
     *
     * @return the members it counted lost now
     */
    int[] droppedAfterPause(String cause, long nowMillis, IntPredicate connected) {
        joinedAgainAtMillis.set(self, nowMillis);
        int[] dropped = new int[size()];
        int n = 0;
        for (int m = 0; m < size(); m++) {
            if (m != self && connected.test(m) && lost.compareAndSet(m, null, cause)) {
                lostByOwnPause.set(m, 1);
                dropped[n++] = m;
            }
        }
        return Arrays.copyOf(dropped, n);
    }

    /** A lost member's new connection was authenticated: it is back, as a member that joined again unless only this one's pause had lost it. */
    Admission back(int member, long nowMillis) {
        if (lostByOwnPause.compareAndSet(member, 1, 0)) {
            lost.set(member, null);
            return Admission.JOINED;
        }
        joinedAgainAtMillis.set(member, nowMillis);
        lost.set(member, null);
        return Admission.JOINED_AGAIN;
    }

    /** A member that had lost this one says so: this process joined again. False if it knew already. */
    boolean joinedAgainItself(long nowMillis) {
        return joinedAgainAtMillis.compareAndSet(self, 0, nowMillis);
    }
}
