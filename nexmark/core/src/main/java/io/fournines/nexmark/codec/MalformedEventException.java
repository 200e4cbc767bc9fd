package io.fournines.nexmark.codec;

/** An input line that is not a valid event; names the line and, where one is to blame, the field. */
public final class MalformedEventException extends RuntimeException {
    private final long lineNumber;
    private final String field;

    /**
     * @param lineNumber 1-based line of the input
     * @param field      dotted path such as {@code bid.price}, or null when the line is not JSON at all
     * @param reason     what is wrong, without the line number or field
     */
    public MalformedEventException(long lineNumber, String field, String reason) {
        super("line " + lineNumber + (field == null ? "" : ", field " + field) + ": " + reason);
        this.lineNumber = lineNumber;
        this.field = field;
    }

    public long lineNumber() {
        return lineNumber;
    }

    /** Dotted path of the offending field, or null. */
    public String field() {
        return field;
    }
}
