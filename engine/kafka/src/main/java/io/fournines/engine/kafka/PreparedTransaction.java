package io.fournines.engine.kafka;

import java.io.Serializable;
import java.util.List;

/**
 * One slice of the transaction a sink instance prepared in a snapshot: the instance (its global
 * index), the transaction's sequence number (its commit marker, {@link TransactionMarkers}) and up to
 * {@link #SLICE} of its records. A transaction with no records is one empty slice.
 */
record PreparedTransaction(int instance, long sequence, List<SavedRecord> records) implements Serializable {

    /** Records per snapshot entry, so that no entry outgrows a snapshot chunk by much. */
    static final int SLICE = 1_000;
}
