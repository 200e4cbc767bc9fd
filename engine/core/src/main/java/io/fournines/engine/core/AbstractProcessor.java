package io.fournines.engine.core;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The usual base for processors: items arrive one at a time through {@link #tryProcess(int, Object)},
 * watermarks are forwarded, and {@link #emitFromTraverser} resumes a multi-item emission where the
 * outbox last refused it.
 */
public abstract class AbstractProcessor implements Processor {

    private Outbox outbox;
    private Context context;
    private Object pendingFromTraverser;
    private Map.Entry<?, ?> pendingSnapshotEntry;
    private Traverser<? extends Map.Entry<?, ?>> snapshotTraverser;

    @Override
    public final void init(Outbox outbox, Context context) throws Exception {
        this.outbox = outbox;
        this.context = context;
        init(context);
    }

    /** Override to prepare state; the outbox is available from here on. */
    protected void init(Context context) throws Exception {
    }

    /**
     * Handles one item from input {@code ordinal}. Returns false to be called again with the same
     * item later (the outbox was full); true once the item is fully handled.
     */
    protected boolean tryProcess(int ordinal, Object item) {
        throw new UnsupportedOperationException(getClass().getName() + " received an item but does not override tryProcess()");
    }

    @Override
    public void process(int ordinal, Inbox inbox) {
        for (Object item; (item = inbox.peek()) != null; ) {
            if (!tryProcess(ordinal, item)) {
                return;
            }
            inbox.remove();
        }
    }

    /** Forwards the watermark to every output. */
    @Override
    public boolean tryProcessWatermark(Watermark watermark) {
        return tryEmit(watermark);
    }

    protected final boolean tryEmit(Object item) {
        return outbox.offer(item);
    }

    protected final boolean tryEmit(int ordinal, Object item) {
        return outbox.offer(ordinal, item);
    }

    /**
     * Emits the traverser's items to every output until it is exhausted (true) or the outbox refuses
     * one (false: call again with the same traverser and it resumes from the refused item).
     */
    protected final <T> boolean emitFromTraverser(Traverser<T> traverser) {
        Object item = pendingFromTraverser != null ? pendingFromTraverser : traverser.next();
        for (; item != null; item = traverser.next()) {
            if (!outbox.offer(item)) {
                pendingFromTraverser = item;
                return false;
            }
        }
        pendingFromTraverser = null;
        return true;
    }

    /** Saves one entry of state; false when the outbox refused it (resume with it next call). */
    protected final boolean tryEmitToSnapshot(Object key, Object value) {
        return outbox.offerToSnapshot(key, value);
    }

    /**
     * Saves the traverser's entries until it is exhausted (true) or the outbox refuses one (false:
     * call again with the same traverser and it resumes from the refused entry).
     */
    protected final boolean emitFromTraverserToSnapshot(Traverser<? extends Map.Entry<?, ?>> traverser) {
        Map.Entry<?, ?> entry = pendingSnapshotEntry != null ? pendingSnapshotEntry : traverser.next();
        for (; entry != null; entry = traverser.next()) {
            if (!outbox.offerToSnapshot(entry.getKey(), entry.getValue())) {
                pendingSnapshotEntry = entry;
                return false;
            }
        }
        pendingSnapshotEntry = null;
        return true;
    }

    /**
     * Saves the entries {@code entries} makes (called once per snapshot, on the first call) over as
     * many calls as the outbox needs: the usual body of {@link #saveToSnapshot()}.
     */
    protected final boolean emitToSnapshot(Supplier<? extends Iterable<? extends Map.Entry<?, ?>>> entries) {
        if (snapshotTraverser == null) {
            snapshotTraverser = Traversers.traverseIterable(entries.get());
        }
        if (!emitFromTraverserToSnapshot(snapshotTraverser)) {
            return false;
        }
        snapshotTraverser = null;
        return true;
    }

    /** Hands each entry to {@link #restoreFromSnapshot(Object, Object)}. */
    @Override
    public void restoreFromSnapshot(Inbox inbox) {
        for (Object item; (item = inbox.poll()) != null; ) {
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
            restoreFromSnapshot(entry.getKey(), entry.getValue());
        }
    }

    /** Restores one entry this instance saved (or, for keyed state, that another instance saved for a key it now owns). */
    protected void restoreFromSnapshot(Object key, Object value) {
        throw new UnsupportedOperationException(getClass().getName() + " saved state but does not override restoreFromSnapshot()");
    }

    protected final Context getContext() {
        return context;
    }
}
