/**
 * Reference implementations of the NEXMark queries: deliberately plain loops over a list of
 * events, with no windowing machinery, state stores or incremental tricks, so that they are
 * obviously right and can serve as oracles for the engine's queries. Each is a function of the
 * input multiset (Q0, Q1, Q2 and Q13 also keep input order), so out-of-order input gives the same
 * results. Output order is documented per query; compare the engine's output as a multiset where
 * the order is not part of the query's meaning. Formats and semantics: {@link io.fournines.nexmark.query}.
 */
package io.fournines.nexmark.query.reference;
