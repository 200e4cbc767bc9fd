package io.fournines.nexmark.model;

/**
 * One NEXMark event: a new person, a new auction or a bid. Field names and meanings follow Beam's
 * NEXMark model; all times are epoch milliseconds.
 */
public sealed interface Event permits Person, Auction, Bid {

    /** Event time: the scheduled time of the event in the open-loop load, epoch millis. */
    long dateTime();
}
