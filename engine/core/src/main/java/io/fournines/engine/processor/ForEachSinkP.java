package io.fournines.engine.processor;

import io.fournines.engine.core.AbstractProcessor;

import java.util.function.Consumer;

/**
 * A sink that hands each item to a consumer; the consumer is shared by all instances, so it must be
 * thread-safe. With a no-op consumer it is the discarding sink.
 */
public final class ForEachSinkP extends AbstractProcessor {

    private final Consumer<Object> consumer;

    @SuppressWarnings("unchecked")
    public ForEachSinkP(Consumer<?> consumer) {
        this.consumer = (Consumer<Object>) consumer;
    }

    @Override
    protected boolean tryProcess(int ordinal, Object item) {
        consumer.accept(item);
        return true;
    }
}
