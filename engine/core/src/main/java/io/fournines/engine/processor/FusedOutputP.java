package io.fournines.engine.processor;

import io.fournines.engine.core.ControlItem;
import io.fournines.engine.core.DelegatingProcessor;
import io.fournines.engine.core.Outbox;
import io.fournines.engine.core.Processor;

import java.util.function.Function;

/**
 * A processor with the stateless stages after it fused in: each data item it emits goes through
 * {@code fn} on the way out (null drops it), instead of through a queue to a vertex of its own.
 * Watermarks and other control items pass unchanged. A source's events and a window stage's
 * results, one per key and slide, are where the hop costs most.
 */
public final class FusedOutputP extends DelegatingProcessor {

    private final Function<Object, Object> fn;

    public FusedOutputP(Processor delegate, Function<Object, Object> fn) {
        super(delegate);
        this.fn = fn;
    }

    @Override
    public void init(Outbox outbox, Context context) throws Exception {
        super.init(new MappingOutbox(outbox, fn), context);
    }

    /**
     * Applies the fused function to data items; a refused item is offered again, so its result is kept
     * for it until taken. Only until then: a source may refill the same object with the next item.
     */
    private static final class MappingOutbox implements Outbox {
        private final Outbox outbox;
        private final Function<Object, Object> fn;
        private Object refusedItem;
        private Object refusedResult;

        MappingOutbox(Outbox outbox, Function<Object, Object> fn) {
            this.outbox = outbox;
            this.fn = fn;
        }

        private Object mapped(Object item) {
            if (item instanceof ControlItem) {
                return item;
            }
            return item == refusedItem ? refusedResult : fn.apply(item);
        }

        /** Whether {@code out}, the result for {@code item}, was taken; if not, it is kept for the item's next offer. */
        private boolean taken(Object item, Object out, boolean taken) {
            if (taken) {
                refusedItem = null;
                refusedResult = null;
            } else {
                refusedItem = item;
                refusedResult = out;
            }
            return taken;
        }

        @Override
        public int bucketCount() {
            return outbox.bucketCount();
        }

        @Override
        public boolean offer(int ordinal, Object item) {
            Object out = mapped(item);
            return out == null || taken(item, out, outbox.offer(ordinal, out));
        }

        @Override
        public boolean offer(Object item) {
            Object out = mapped(item);
            return out == null || taken(item, out, outbox.offer(out));
        }

        @Override
        public boolean offerToSnapshot(Object key, Object value) {
            return outbox.offerToSnapshot(key, value);
        }

        @Override
        public boolean hasReachedLimit() {
            return outbox.hasReachedLimit();
        }
    }
}
