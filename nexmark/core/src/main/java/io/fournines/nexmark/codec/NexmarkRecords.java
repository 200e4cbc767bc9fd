package io.fournines.nexmark.codec;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.nio.ByteBuffer;

/**
 * A NEXMark event as a Kafka record. Value: the scheduled time (epoch nanoseconds, 8 bytes,
 * big-endian), then the event in {@link BinaryEventCodec}'s form (a bid is 15-19 bytes), then, in a
 * padded record only, the padding: its length as a varint and that many zero bytes, which the
 * reader skips (a scenario's {@code load.padding}: events as large as a real payload's on the wire,
 * at no cost to the queries). Key: what
 * the queries group by, as 8 bytes: the auction for a bid (Q5 counts bids per auction), the id for
 * a person or an auction. Latency is measured to the nanosecond schedule, as in the in-process run;
 * the event's {@code dateTime} is that time floored to the millisecond.
 */
public final class NexmarkRecords {

    public static final int SCHEDULE_BYTES = Long.BYTES;
    /** The most padding a record carries: the scenario's limit, 100 KB. */
    public static final int MAX_PADDING_BYTES = 100 * 1024;

    private NexmarkRecords() {
    }

    /** A decoded record: the event and its scheduled time. */
    public record ScheduledEvent(Event event, long scheduledEpochNanos) {
    }

    /**
     * @param paddingBytes 0 to {@link #MAX_PADDING_BYTES}: payload bytes after the event (0: none, not even a length)
     * @param scratch      room for the schedule, the event and the padding
     */
    public static byte[] value(Event event, long scheduledEpochNanos, int paddingBytes, ByteBuffer scratch) {
        if (paddingBytes < 0 || paddingBytes > MAX_PADDING_BYTES) {
            throw new IllegalArgumentException("padding must be 0 to " + MAX_PADDING_BYTES + " bytes; is " + paddingBytes);
        }
        scratch.clear();
        scratch.putLong(scheduledEpochNanos);
        BinaryEventCodec.encode(event, scratch);
        if (paddingBytes > 0) {
            VarLong.write(scratch, paddingBytes);
        }
        // The new array is zeroed: the padding needs no writing.
        byte[] bytes = new byte[scratch.position() + paddingBytes];
        scratch.flip().get(bytes, 0, scratch.limit());
        return bytes;
    }

    public static byte[] key(Event event) {
        long key;
        if (event instanceof Bid b) {
            key = b.auction();
        } else if (event instanceof Auction a) {
            key = a.id();
        } else {
            key = ((Person) event).id();
        }
        return ByteBuffer.allocate(Long.BYTES).putLong(key).array();
    }

    /**
     * The event and its schedule; the padding, if any, skipped.
     *
     * @throws IllegalArgumentException if the value is missing, too short, or not one event exactly, with or without its padding
     */
    public static ScheduledEvent decode(byte[] value) {
        if (value == null || value.length <= SCHEDULE_BYTES) {
            throw new IllegalArgumentException("a NEXMark record needs 8 bytes of scheduled time and an event; got "
                    + (value == null ? "no value" : value.length + " bytes"));
        }
        ByteBuffer in = ByteBuffer.wrap(value);
        long scheduled = in.getLong();
        Event event;
        try {
            event = BinaryEventCodec.decode(in);
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("the event is cut short after " + value.length + " bytes");
        }
        if (in.hasRemaining()) {
            checkPadding(in);
        }
        return new ScheduledEvent(event, scheduled);
    }

    /** What is left after the event must be one padding: its length, then exactly that many bytes, which nothing reads. */
    private static void checkPadding(ByteBuffer in) {
        int after = in.remaining();
        long padding;
        try {
            padding = VarLong.read(in);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(after + " bytes left after the event, not a padding length");
        }
        if (padding < 1 || padding > MAX_PADDING_BYTES || padding != in.remaining()) {
            throw new IllegalArgumentException(after + " bytes left after the event: a padding of " + padding + " bytes and "
                    + in.remaining() + " bytes");
        }
    }
}
