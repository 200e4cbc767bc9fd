package io.fournines.engine.cluster;

import java.util.Locale;

/**
 * What a member connection carries. Every member pair has one connection of each plane: the view
 * plane's heartbeats and view messages never queue behind the data plane's packets, snapshot state
 * or restore traffic, in a socket or on a thread ({@link Cluster}).
 */
enum Plane {
    /** Edges' packets and credit, snapshot frames and job control, read on the data I/O thread. */
    DATA(1),
    /** Heartbeats and view messages, read on a thread of their own. */
    VIEW(2);

    /** Both planes' bits: a member whose connections of both planes are up. */
    static final int BOTH = DATA.bit | VIEW.bit;

    final int bit;

    Plane(int bit) {
        this.bit = bit;
    }

    /** As log lines name it: "data", "view". */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The plane a dialer names in its handshake, or null for an unknown code. */
    static Plane of(int bit) {
        return bit == DATA.bit ? DATA : bit == VIEW.bit ? VIEW : null;
    }
}
