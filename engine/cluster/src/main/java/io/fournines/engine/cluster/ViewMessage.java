package io.fournines.engine.cluster;

import java.util.BitSet;

/** What members send each other to agree on a {@link View} ({@link ViewAgreement}). */
sealed interface ViewMessage {

    long term();

    /** A member asks to coordinate {@code term}. */
    record VoteRequest(long term) implements ViewMessage {
    }

    /** The answer to a {@link VoteRequest}; {@code term} is the voter's, which may be newer. */
    record Vote(long term, boolean granted) implements ViewMessage {
    }

    /**
     * Sent with every heartbeat: the term and coordinator of the view the sender acts on ({@code -1}
     * for both: none), so a coordinator learns that its view was overtaken, or that one of its
     * members does not follow it, and a member without a view that a coordinator leads the others.
     */
    record Heartbeat(long term, int coordinator) implements ViewMessage {
    }

    /** The coordinator of {@code term} names the members of its view. */
    record Install(long term, BitSet members) implements ViewMessage {
        public Install {
            members = (BitSet) members.clone();
        }
    }
}
