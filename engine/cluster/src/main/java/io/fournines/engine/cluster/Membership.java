package io.fournines.engine.cluster;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;

/**
 * Which members this one reaches, as its connections and failure detector say: which are lost and
 * why. Who coordinates is not decided here but by a majority ({@link ViewAgreement}). No I/O:
 * {@link Cluster} tells it what the connections say. Thread-safe.
 */
final class Membership {

    /** What a lost member's new, authenticated connections mean. */
    enum Admission {
        /** A member joining the cluster as it forms, or one this member had only counted lost because it was paused itself. */
        JOINED,
        /** A lost member back: a new process with its index, or the same one after a partition. */
        JOINED_AGAIN
    }

    private final AtomicReferenceArray<String> lost;
    /** Members counted lost only because this one was dropped after a pause: they never left, so reaching them again is no join of theirs. */
    private final AtomicIntegerArray lostByOwnPause;

    Membership(int size) {
        this.lost = new AtomicReferenceArray<>(size);
        this.lostByOwnPause = new AtomicIntegerArray(size);
    }

    int size() {
        return lost.length();
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
     * member it is {@code connected} to lost (their silence was its own).
     *
     * @return the members it counted lost now
     */
    int[] droppedAfterPause(String cause, IntPredicate connected) {
        int[] dropped = new int[size()];
        int n = 0;
        for (int m = 0; m < size(); m++) {
            if (connected.test(m) && lost.compareAndSet(m, null, cause)) {
                lostByOwnPause.set(m, 1);
                dropped[n++] = m;
            }
        }
        return Arrays.copyOf(dropped, n);
    }

    /** A lost member's new connection was authenticated: it is back, as a member that joined again unless only this one's pause had lost it. */
    Admission back(int member) {
        Admission admission = lostByOwnPause.compareAndSet(member, 1, 0) ? Admission.JOINED : Admission.JOINED_AGAIN;
        lost.set(member, null);
        return admission;
    }
}
