package io.fournines.nexmark.codec;

/**
 * How a bounded load marks its end in Kafka: after its last event the load generator writes one
 * record with this header (empty value, no key) to each partition, and the member's Kafka source
 * ends that partition there. Streams of either kind (NEXMark, trades) end the same way, and a
 * reader that knows nothing of it sees a record it cannot decode.
 */
public final class EndOfStream {

    public static final String HEADER = "fournines-end-of-stream";

    private EndOfStream() {
    }
}
