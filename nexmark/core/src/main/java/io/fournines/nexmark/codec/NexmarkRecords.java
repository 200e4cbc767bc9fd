package io.fournines.nexmark.codec;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.nio.ByteBuffer;

/**
 * A NEXMark event as a Kafka record. Value: the scheduled time (epoch nanoseconds, 8 bytes,
 * big-endian), then the event in {@link BinaryEventCodec}'s form (a bid is 15-19 bytes). Key: what
 * the queries group by, as 8 bytes: the auction for a bid (Q5 counts bids per auction), the id for
 * a person or an auction. Latency is measured to the nanosecond schedule, as in the in-process run;
 * the event's {@code dateTime} is that time floored to the millisecond.
 */
public final class NexmarkRecords {

    public static final int SCHEDULE_BYTES = Long.BYTES;

    private NexmarkRecords() {
    }

    /** A decoded record: the event and its scheduled time. */
    public record ScheduledEvent(Event event, long scheduledEpochNanos) {
    }

    public static byte[] value(Event event, long scheduledEpochNanos, ByteBuffer scratch) {
        scratch.clear();
        scratch.putLong(scheduledEpochNanos);
        BinaryEventCodec.encode(event, scratch);
        byte[] bytes = new byte[scratch.position()];
        scratch.flip().get(bytes);
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
     * @throws IllegalArgumentException if the value is missing, too short, or not one event exactly
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
            throw new IllegalArgumentException(in.remaining() + " bytes left after the event");
        }
        return new ScheduledEvent(event, scheduled);
    }
}
