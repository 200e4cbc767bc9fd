package io.fournines.engine.execution;

/**
 * How a packet's entries start: the receiving member's consumer instance the item goes to, or one
 * of these markers. Watermarks, snapshot barriers, batch markers and the done marker go to every consumer.
 */
final class NetworkEntry {

    /** A data item for every consumer instance (a broadcast edge). */
    static final int ALL_CONSUMERS = -1;
    /** Followed by the watermark's timestamp. */
    static final int WATERMARK = -2;
    /** The sending member's producers are all done. */
    static final int DONE = -3;
    /** Followed by the snapshot id: every producer of the sending member passed this snapshot's barrier. */
    static final int BARRIER = -4;
    /** Followed by the batch: every producer of the sending member passed this batch's marker. */
    static final int BATCH = -5;

    private NetworkEntry() {
    }
}
