package io.fournines.engine.core;

/** What a job's snapshots promise after a restore. */
public enum ProcessingGuarantee {
    /** No snapshots: a restarted job starts from scratch. */
    NONE,
    /**
     * Barriers are not aligned: an input whose barrier came early keeps flowing, so its items after
     * the barrier may be in the state and replayed after a restore (duplicates, never loss).
     */
    AT_LEAST_ONCE,
    /** Barriers are aligned: an input stops at its barrier until all inputs reached it. */
    EXACTLY_ONCE
}
