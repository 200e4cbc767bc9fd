package io.fournines.engine.cluster;

import java.util.BitSet;

/**
 * Who runs the cluster's jobs in one term: the coordinator and the members that voted for it, a
 * majority of the configured members ({@link ViewAgreement}). Every member that installs the view of
 * a term installs the same one.
 */
public record View(long term, int coordinator, BitSet members) {

    public View {
        members = (BitSet) members.clone();
    }

    @Override
    public BitSet members() {
        return (BitSet) members.clone();
    }

    public boolean includes(int member) {
        return members.get(member);
    }

    @Override
    public String toString() {
        return "term " + term + ", coordinator " + coordinator + ", members " + members;
    }
}
