package io.fournines.engine.processor;

import java.util.Map;
import java.util.function.BiPredicate;

/**
 * A window state's frames as of a snapshot, written over one or more calls. A copy-on-write save
 * ({@link #writesWhileProcessing()}) is written after the barrier went on, a bounded piece per call,
 * while the frames go on changing; any other is written before anything else is processed.
 */
interface FramesSave {

    /**
     * Offers entries to {@code out} until it refuses one (offered again next time) or this call's
     * piece is written. True once everything is.
     */
    boolean writeSome(BiPredicate<Object, Object> out);

    /** True when the frames may change while this is being written. */
    boolean writesWhileProcessing();

    /** A save of entries taken whole, to be written before the state changes. */
    static FramesSave atOnce(PendingItems entries) {
        return new FramesSave() {
            @Override
            public boolean writeSome(BiPredicate<Object, Object> out) {
                return entries.emit(item -> out.test(((Map.Entry<?, ?>) item).getKey(), ((Map.Entry<?, ?>) item).getValue()));
            }

            @Override
            public boolean writesWhileProcessing() {
                return false;
            }
        };
    }
}
