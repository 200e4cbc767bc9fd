package io.fournines.loadgen;

/**
 * Which part of one schedule a load generator sends when several, on hosts of their own, feed one
 * topic: the {@code index}-th of {@code count} (0-based). With {@code producers} threads each, they
 * are {@code count * producers} senders of the one sequence, and this generator's threads are senders
 * {@code index * producers ...}: together they send every event once, each partition from one thread.
 */
record Share(int index, int count) {

    static final Share WHOLE = new Share(0, 1);

    /** @param text "K/N", K from 1 to N */
    static Share parse(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length == 2) {
            try {
                int k = Integer.parseInt(parts[0].trim());
                int n = Integer.parseInt(parts[1].trim());
                if (n >= 1 && k >= 1 && k <= n) {
                    return new Share(k - 1, n);
                }
            } catch (NumberFormatException e) {
                // named below
            }
        }
        throw new IllegalArgumentException("--share must be K/N with 1 <= K <= N, e.g. 2/3; is " + text);
    }

    /** The first global sender index of this generator's {@code producers} threads. */
    int firstSender(int producers) {
        return index * producers;
    }

    @Override
    public String toString() {
        return (index + 1) + "/" + count;
    }
}
