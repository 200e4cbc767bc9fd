package io.fournines.engine.core;

/**
 * The usual base for processors: items arrive one at a time through {@link #tryProcess(int, Object)},
 * watermarks are forwarded, and {@link #emitFromTraverser} resumes a multi-item emission where the
 * outbox last refused it.
 */
public abstract class AbstractProcessor implements Processor {

    private Outbox outbox;
    private Context context;
    private Object pendingFromTraverser;

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

    protected final Outbox getOutbox() {
        return outbox;
    }

    protected final Context getContext() {
        return context;
    }
}
