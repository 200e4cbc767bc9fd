package io.fournines.nexmark.model;

import java.io.Serializable;

/**
 * One NEXMark event: a new person, a new auction or a bid. Field names and meanings follow Beam's
 * NEXMark model; all times are epoch milliseconds. Serializable: join and window state holding events
 * goes into snapshots.
 */
public sealed interface Event extends Serializable permits Person, Auction, Bid {

    /** Event time: the scheduled time of the event in the open-loop load, epoch millis. */
    long dateTime();
}
