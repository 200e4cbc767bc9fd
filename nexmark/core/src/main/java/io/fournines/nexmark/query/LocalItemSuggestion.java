package io.fournines.nexmark.query;

/**
 * Q3: a person in OR, ID or CA and an auction of category 10 they sell; {@code id} is the
 * auction's. One result per (person event, auction event) pair with {@code auction.seller ==
 * person.id}, whichever arrives first; with recycled ids (bounded keys) every person event with
 * the seller's id pairs.
 */
public record LocalItemSuggestion(String name, String city, String state, long id) {
}
