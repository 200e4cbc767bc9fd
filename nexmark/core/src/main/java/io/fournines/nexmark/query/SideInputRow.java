package io.fournines.nexmark.query;

/** One row of Q13's bounded side input. */
public record SideInputRow(long key, String value) {
}
