package io.fournines.nexmark.codec;

import io.fournines.nexmark.model.Auction;
import io.fournines.nexmark.model.Bid;
import io.fournines.nexmark.model.Event;
import io.fournines.nexmark.model.Person;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The compact binary form of an event, for Kafka records and network frames.
 *
 * <pre>
 * event   := tag:byte body
 * person  := 1 id:long name:str emailAddress:str creditCard:str city:str state:str dateTime:long extra:str
 * auction := 2 id:long itemName:str description:str initialBid:long reserve:long dateTime:long
 *              (expires - dateTime):long seller:long category:long extra:str
 * bid     := 3 auction:long bidder:long price:long dateTime:long extra:str
 * long    := zig-zag LEB128 varint, 1 to 10 bytes
 * str     := byte length as long, then that many bytes of UTF-8
 * </pre>
 *
 * Fields are in the model's order; an auction's expiry is stored relative to its creation because
 * auctions last seconds, not decades. A generated bid without padding takes 15 to 19 bytes: tag 1,
 * auction and bidder 2-3 each, price 1-5, dateTime 6, empty extra 1.
 */
public final class BinaryEventCodec {
    static final byte PERSON = 1;
    static final byte AUCTION = 2;
    static final byte BID = 3;

    private BinaryEventCodec() {
    }

    /**
     * Writes {@code event} at {@code out}'s position and advances it.
     *
     * @throws java.nio.BufferOverflowException if {@code out} has too little room; what was written
     *                                          is then garbage
     */
    public static void encode(Event event, ByteBuffer out) {
        if (event instanceof Person p) {
            out.put(PERSON);
            VarLong.write(out, p.id());
            writeString(out, p.name());
            writeString(out, p.emailAddress());
            writeString(out, p.creditCard());
            writeString(out, p.city());
            writeString(out, p.state());
            VarLong.write(out, p.dateTime());
            writeString(out, p.extra());
        } else if (event instanceof Auction a) {
            out.put(AUCTION);
            VarLong.write(out, a.id());
            writeString(out, a.itemName());
            writeString(out, a.description());
            VarLong.write(out, a.initialBid());
            VarLong.write(out, a.reserve());
            VarLong.write(out, a.dateTime());
            VarLong.write(out, a.expires() - a.dateTime());
            VarLong.write(out, a.seller());
            VarLong.write(out, a.category());
            writeString(out, a.extra());
        } else {
            Bid b = (Bid) event;
            out.put(BID);
            VarLong.write(out, b.auction());
            VarLong.write(out, b.bidder());
            VarLong.write(out, b.price());
            VarLong.write(out, b.dateTime());
            writeString(out, b.extra());
        }
    }

    /**
     * Reads one event at {@code in}'s position and advances past it.
     *
     * @throws IllegalArgumentException             on an unknown tag, a malformed varint or a bad length
     * @throws java.nio.BufferUnderflowException if the event is cut short
     */
    public static Event decode(ByteBuffer in) {
        byte tag = in.get();
        return switch (tag) {
            case PERSON -> new Person(VarLong.read(in), readString(in), readString(in), readString(in),
                    readString(in), readString(in), VarLong.read(in), readString(in));
            case AUCTION -> {
                long id = VarLong.read(in);
                String itemName = readString(in);
                String description = readString(in);
                long initialBid = VarLong.read(in);
                long reserve = VarLong.read(in);
                long dateTime = VarLong.read(in);
                long expires = dateTime + VarLong.read(in);
                yield new Auction(id, itemName, description, initialBid, reserve, dateTime, expires,
                        VarLong.read(in), VarLong.read(in), readString(in));
            }
            case BID -> new Bid(VarLong.read(in), VarLong.read(in), VarLong.read(in), VarLong.read(in),
                    readString(in));
            default -> throw new IllegalArgumentException("unknown event tag " + tag + " at byte " + (in.position() - 1));
        };
    }

    /** The event as a fresh array of exactly its encoded length. */
    public static byte[] encode(Event event) {
        ByteBuffer buffer = ByteBuffer.allocate(encodedLengthBound(event));
        encode(event, buffer);
        byte[] bytes = new byte[buffer.position()];
        buffer.flip().get(bytes);
        return bytes;
    }

    /**
     * Decodes an array that holds exactly one event.
     *
     * @throws IllegalArgumentException if bytes are left over, besides the cases of {@link #decode(ByteBuffer)}
     */
    public static Event decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        Event event = decode(in);
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " bytes left after the event");
        }
        return event;
    }

    /** An upper bound of the encoded length: 10 bytes a long, 3 bytes a UTF-8 char. */
    private static int encodedLengthBound(Event event) {
        int maxLong = 10;
        if (event instanceof Person p) {
            return 1 + 8 * maxLong + 3 * (p.name().length() + p.emailAddress().length()
                    + p.creditCard().length() + p.city().length() + p.state().length() + p.extra().length());
        }
        if (event instanceof Auction a) {
            return 1 + 10 * maxLong + 3 * (a.itemName().length() + a.description().length() + a.extra().length());
        }
        return 1 + 5 * maxLong + 3 * ((Bid) event).extra().length();
    }

    private static void writeString(ByteBuffer out, String s) {
        if (s.isEmpty()) {
            VarLong.write(out, 0);
            return;
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        VarLong.write(out, utf8.length);
        out.put(utf8);
    }

    private static String readString(ByteBuffer in) {
        long length = VarLong.read(in);
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("string length " + length + " at byte " + in.position()
                    + " exceeds the " + in.remaining() + " bytes left");
        }
        byte[] utf8 = new byte[(int) length];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
