package io.fournines.engine.cluster;

import java.util.BitSet;
import java.util.Random;

/**
 * How the members agree on who coordinates and who runs jobs: a {@link View} per term, elected by a
 * majority of the configured members, in the manner of Raft's leader election. No I/O and no clock:
 * the caller says which members this one hears ({@link #reachable}), hands it their messages
 * ({@link #receive}) and the time ({@link #tick}), and sends what it asks to send. The protocol and
 * its invariants are in engine/docs/cluster.md ("Membership: views agreed by a majority").
 *
 * <ul>
 *   <li>A member votes at most once per term, so at most one member collects a majority for a
 *       term, and only that member sends the view of that term: every member that installs a view
 *       of term t installs the same one.</li>
 *   <li>A view's members are the coordinator's voters, a majority; a coordinator that hears fewer
 *       than a majority steps down, and a member that no longer hears its coordinator stops acting
 *       on its view. A side of a partition without a majority therefore has no view: its jobs pause
 *       instead of restarting beside the majority's.</li>
 *   <li>A member whose coordinator is still heard refuses to vote for anyone else, so a member that
 *       comes back, or one that lost only its own link to the coordinator, cannot unseat it. So does
 *       a member without a view that hears of a coordinator it reaches (it waits to be let in, say
 *       between hearing of its coordinator's newer view and receiving it): a returning member that
 *       does not reach that coordinator yet cannot win it over in the gap.</li>
 *   <li>The lowest-indexed member among those a member hears stands when there is no coordinator it
 *       hears of (a member that hears a coordinator's heartbeats, or those of its members, waits to
 *       be let in);
 *       the coordinator stands again, for the next term, when the members it hears differ from its
 *       view's or one of them does not follow its view (heartbeats carry the view's term), so lost
 *       members leave the view and returning ones enter it.</li>
 *   <li>A member that hears of a newer view than its own (in a heartbeat) stops acting on its own:
 *       a coordinator that lost an election it never heard of learns it this way.</li>
 * </ul>
 *
 * <p>Not thread-safe: one thread calls it (the cluster's view thread).
 */
final class ViewAgreement {

    /** Where the agreement's effects go. */
    interface Effects {
        /**
         * The term and vote must survive a restart of this process before anything is sent: a member
         * that forgot its vote could vote twice in one term, and two coordinators could win it.
         */
        void persist(long term, int votedFor);

        void send(int member, ViewMessage message);

        /** This member installed {@code view}, or has none now (null): it must not act on the old one. */
        void viewChanged(View view, String why);
    }

    private final int self;
    private final int size;
    private final int majority;
    private final long voteTimeoutMillis;
    private final Random backoff;
    private final Effects effects;
    private final BitSet reachable = new BitSet();
    private long term;
    /** The member this one voted for in {@link #term}, or -1. */
    private int votedFor = -1;
    private View view;
    /**
     * Views are installed only forward: a view paused is never taken back up (its coordinator lets
     * the member in again in a newer term). A restarted member starts from the term it persisted,
     * since it may have installed that term's view before.
     */
    private long installedTerm;
    /** The term this member stands for, or -1. */
    private long candidacy = -1;
    private final BitSet votes = new BitSet();
    /** The members that answered this member's candidacy, granting or refusing. */
    private final BitSet answered = new BitSet();
    private long candidacyEndsAtMillis;
    private long mayStandAtMillis;
    /** Members of this coordinator's view whose last heartbeat named another view than its own. */
    private final BitSet notFollowing = new BitSet();
    private long installedAtMillis;
    private long nowMillis;
    /** The coordinator a heartbeat last named that this member hears, while it had no view itself (-1: none), and when. */
    private int coordinatorHeardOf = -1;
    private long coordinatorHeardOfAtMillis = Long.MIN_VALUE / 2;

    /**
     * @param voteTimeoutMillis how long a candidate waits for votes; after a failed candidacy it
     *                          waits one to two times as long (drawn from {@code backoff}) before it stands again
     */
    ViewAgreement(int self, int size, long voteTimeoutMillis, Random backoff, Effects effects) {
        this(self, size, voteTimeoutMillis, backoff, effects, 0, -1);
    }

    /** A restarted member, with the term and vote it persisted. */
    ViewAgreement(int self, int size, long voteTimeoutMillis, Random backoff, Effects effects, long term, int votedFor) {
        this.term = term;
        this.votedFor = votedFor;
        this.installedTerm = term;
        this.self = self;
        this.size = size;
        this.majority = size / 2 + 1;
        this.voteTimeoutMillis = voteTimeoutMillis;
        this.backoff = backoff;
        this.effects = effects;
        reachable.set(self);
    }

    /** The view this member acts on, or null: no coordinator it may follow, so its jobs pause. */
    View view() {
        return view;
    }

    long term() {
        return term;
    }

    int majority() {
        return majority;
    }

    /** Whether this member hears {@code member} now (the failure detector's verdict). */
    void reachable(int member, boolean heard) {
        if (member == self || reachable.get(member) == heard) {
            return;
        }
        reachable.set(member, heard);
        if (!heard && view != null && view.coordinator() == member) {
            pause("the coordinator, member " + member + ", is not heard");
        }
    }

    /** Elections start and end here; call it often (every heartbeat). */
    void tick(long nowMillis) {
        this.nowMillis = nowMillis;
        if (candidacy >= 0 && nowMillis >= candidacyEndsAtMillis) {
            if (votes.cardinality() >= majority) {
                install();
            } else {
                candidacy = -1;
                holdOff();
            }
        }
        boolean coordinating = view != null && view.coordinator() == self;
        if (coordinating && reachable.cardinality() < majority) {
            pause("this coordinator hears " + reachable.cardinality() + " of " + size + " members, fewer than a majority");
            coordinating = false;
        }
        if (candidacy >= 0 || nowMillis < mayStandAtMillis || reachable.cardinality() < majority) {
            return;
        }
        // Members take a round trip to install a view: until then their heartbeats name the old one.
        boolean straggler = !notFollowing.isEmpty() && nowMillis >= installedAtMillis + voteTimeoutMillis;
        boolean led = led();
        if (coordinating ? straggler || !reachable.equals(view.members())
                : view == null && !led && reachable.nextSetBit(0) == self) {
            stand(nowMillis);
        }
    }

    /** What this member's heartbeats carry. */
    ViewMessage.Heartbeat heartbeat() {
        return view == null ? new ViewMessage.Heartbeat(-1, -1) : new ViewMessage.Heartbeat(view.term(), view.coordinator());
    }

    void receive(int from, ViewMessage message) {
        if (message instanceof ViewMessage.VoteRequest request) {
            onVoteRequest(from, request.term());
        } else if (message instanceof ViewMessage.Vote vote) {
            onVote(from, vote);
        } else if (message instanceof ViewMessage.Install install) {
            onInstall(from, install);
        } else if (message instanceof ViewMessage.Heartbeat heartbeat) {
            onHeartbeat(from, heartbeat);
        }
    }

    private void onHeartbeat(int from, ViewMessage.Heartbeat heartbeat) {
        long theirView = heartbeat.term();
        if (view == null) {
            heardOf(heartbeat);
            return;
        }
        if (theirView > view.term()) {
            pause("member " + from + " acts on a newer view, of term " + theirView);
            heardOf(heartbeat);
        } else if (from == view.coordinator() && theirView < view.term()) {
            pause("the coordinator, member " + from + ", no longer acts on this view");
        } else if (view.coordinator() == self && view.includes(from)) {
            notFollowing.set(from, theirView != view.term());
        }
    }

    /** Without a view: a heartbeat naming a coordinator this member reaches leads it (it waits to be let in). */
    private void heardOf(ViewMessage.Heartbeat heartbeat) {
        if (heartbeat.term() >= 0 && reachable.get(heartbeat.coordinator())) {
            coordinatorHeardOf = heartbeat.coordinator();
            coordinatorHeardOfAtMillis = nowMillis;
        }
    }

    /** Whether a coordinator this member reaches was named to it within the vote timeout. */
    private boolean led() {
        return coordinatorHeardOf >= 0 && nowMillis - coordinatorHeardOfAtMillis <= voteTimeoutMillis && reachable.get(coordinatorHeardOf);
    }

    private void stand(long nowMillis) {
        term++;
        votedFor = self;
        effects.persist(term, votedFor);
        candidacy = term;
        votes.clear();
        votes.set(self);
        answered.clear();
        answered.set(self);
        candidacyEndsAtMillis = nowMillis + voteTimeoutMillis;
        for (int m = reachable.nextSetBit(0); m >= 0; m = reachable.nextSetBit(m + 1)) {
            if (m != self) {
                effects.send(m, new ViewMessage.VoteRequest(term));
            }
        }
        if (votes.cardinality() >= majority && votes.equals(reachable)) {
            install();  // a cluster of one
        }
    }

    private void onVoteRequest(int candidate, long requested) {
        boolean coordinatorHeard = view != null ? view.coordinator() != candidate && reachable.get(view.coordinator())
                : led() && coordinatorHeardOf != candidate;
        if (requested > term) {
            newerTerm(requested);  // even when refusing: this member's own next candidacy must be newer still
        }
        if (requested < term || coordinatorHeard) {
            effects.send(candidate, new ViewMessage.Vote(term, false));
            return;
        }
        boolean grant = (votedFor == -1 || votedFor == candidate) && reachable.get(candidate);
        if (grant && votedFor != candidate) {
            votedFor = candidate;
            effects.persist(term, votedFor);
        }
        effects.send(candidate, new ViewMessage.Vote(term, grant));
    }

    private void onVote(int voter, ViewMessage.Vote vote) {
        if (vote.term() > term) {
            newerTerm(vote.term());  // a later candidacy of this member starts beyond it
        } else if (vote.term() == candidacy) {
            answered.set(voter);
            if (vote.granted()) {
                votes.set(voter);
            }
            // Everyone it hears has answered: no need to wait out the timeout.
            if (votes.cardinality() >= majority && votes.equals(reachable)) {
                install();
            } else if (answered.equals(reachable) && votes.cardinality() < majority) {
                // Refused by members that still hear another coordinator, which they may stop hearing in a moment
                // (they detect its loss up to a heartbeat apart): try again within a vote timeout, not after one or two.
                candidacy = -1;
                mayStandAtMillis = nowMillis + (long) (backoff.nextDouble() * voteTimeoutMillis);
            }
        }
    }

    private void onInstall(int coordinator, ViewMessage.Install install) {
        if (install.term() < term) {
            return;  // a view overtaken by a newer term
        }
        if (install.term() > term) {
            newerTerm(install.term());
        }
        if (install.members().get(self) && votedFor == coordinator && install.term() > installedTerm) {
            installedTerm = install.term();
            view = new View(install.term(), coordinator, install.members());
            effects.viewChanged(view, "installed by its coordinator");
        } else if (view != null && view.term() < install.term()) {
            pause("left out of the view of term " + install.term() + " by member " + coordinator);
        }
    }

    /** A newer term exists: this member's vote is free again and its own candidacy is over. */
    private void newerTerm(long newer) {
        term = newer;
        votedFor = -1;
        candidacy = -1;
        effects.persist(term, votedFor);
    }

    /**
     * After a candidacy, won or run out of time, this member waits one to two vote timeouts before it
     * stands again: rivals that collided draw different waits, and a member that keeps refusing (it
     * still hears another coordinator) costs a term per wait, not per heartbeat. (A candidacy that
     * everyone it hears refused waits less: {@link #onVote}.)
     */
    private void holdOff() {
        mayStandAtMillis = nowMillis + voteTimeoutMillis + (long) (backoff.nextDouble() * voteTimeoutMillis);
    }

    private void install() {
        candidacy = -1;
        holdOff();
        installedTerm = term;
        view = new View(term, self, votes);
        notFollowing.clear();
        installedAtMillis = nowMillis;
        for (int m = votes.nextSetBit(0); m >= 0; m = votes.nextSetBit(m + 1)) {
            if (m != self) {
                effects.send(m, new ViewMessage.Install(term, votes));
            }
        }
        effects.viewChanged(view, "elected by members " + votes);
    }

    private void pause(String why) {
        if (view != null) {
            view = null;
            effects.viewChanged(null, why);
        }
    }
}
