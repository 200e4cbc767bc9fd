package io.fournines.engine.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;

/**
 * Malformed records as JSON Lines, one a line, raw bytes in base64 so nothing is lost:
 * <pre>{"topic":"events","partition":3,"offset":1234,"timestamp":1700000000000,"reason":"...","key":"AAE=","value":"AwIB..."}</pre>
 * {@code key} and {@code value} are null for a null key or value. A file rather than a dead-letter
 * topic because a cooperative source must not block on a producer's full buffer or missing metadata,
 * and because the runner keeps the file in the results folder next to the run it explains. Each
 * line is flushed as it is written: a crash must not lose the evidence.
 */
public final class DeadLetterFile implements DeadLetters {

    private final Path path;
    private final BufferedWriter out;

    public DeadLetterFile(Path path) throws IOException {
        this.path = path;
        this.out = Files.newBufferedWriter(path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    public Path path() {
        return path;
    }

    @Override
    public synchronized void setAside(ConsumerRecord<byte[], byte[]> record, String reason) {
        try {
            out.write("{\"topic\":" + quoted(record.topic()) + ",\"partition\":" + record.partition() + ",\"offset\":" + record.offset()
                    + ",\"timestamp\":" + record.timestamp() + ",\"reason\":" + quoted(reason)
                    + ",\"key\":" + base64(record.key()) + ",\"value\":" + base64(record.value()) + "}\n");
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dead-letter file " + path, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the dead-letter file " + path, e);
        }
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? "null" : "\"" + Base64.getEncoder().encodeToString(bytes) + "\"";
    }

    /** A JSON string literal. */
    static String quoted(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
