package io.fournines.engine.cluster;

/** The first byte of every frame on a member connection (frames are length-prefixed). */
final class Frames {

    /** Acceptor to dialer: a nonce to prove the secret over. */
    static final byte CHALLENGE = 1;
    /** Dialer: its index, its own nonce, its member list's hash, HMAC(join, challenge, its index, the acceptor's, nonce, list hash). */
    static final byte HELLO = 2;
    /** Acceptor: HMAC(welcome, dialer's nonce, acceptor's index, list hash), so the dialer knows it too. */
    static final byte WELCOME = 3;
    /** Acceptor: why it closes the connection. */
    static final byte REFUSED = 4;
    /** The sender's view: its term and coordinator, -1 for both when it has none ({@link ViewFrames}). */
    static final byte HEARTBEAT = 5;
    /** jobId, edgeId, entries, packet. */
    static final byte DATA = 6;
    /** jobId, edgeId, send limit. */
    static final byte CREDIT = 7;
    /** kind, the sender's view term, jobId, UTF-8 text: job start, cancel, failure and end. */
    static final byte CONTROL = 8;
    /** jobId, then a {@link ReplicatedSnapshotStore} message: snapshot state sent to a backup, or its acknowledgement. */
    static final byte SNAPSHOT = 9;
    /** A vote request, a vote or a view's installation ({@link ViewFrames}). */
    static final byte VIEW = 10;
    /** executionId, kind (ready, stage done, launch), stage, then two longs: batch scheduling ({@link ClusterJobNetwork}). */
    static final byte BATCH = 11;

    private Frames() {
    }
}
