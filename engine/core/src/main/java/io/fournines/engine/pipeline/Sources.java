package io.fournines.engine.pipeline;

import io.fournines.engine.processor.GeneratorSourceP;
import io.fournines.engine.processor.GeneratorSourceP.ItemFactory;
import io.fournines.engine.processor.ItemsSourceP;
import io.fournines.engine.processor.ScheduleMonitor;

import java.util.List;
import java.util.function.Supplier;

/** The built-in sources. */
public final class Sources {

    private Sources() {
    }

    @SafeVarargs
    public static <T> BatchSource<T> items(T... items) {
        return list(List.of(items));
    }

    public static <T> BatchSource<T> list(List<? extends T> items) {
        List<? extends T> copy = List.copyOf(items);
        return new BatchSource<>("items", () -> new ItemsSourceP(copy));
    }

    /**
     * A finite stream: all items, then the end. It emits no watermarks, so every window fires when
     * the input ends, and items may be in any order.
     */
    public static <T> StreamSource<T> boundedStream(List<? extends T> items) {
        List<? extends T> copy = List.copyOf(items);
        return new StreamSource<>("bounded-stream", plan -> () -> new ItemsSourceP(copy));
    }

    /** An endless open-loop generator at {@code itemsPerSecond}; see {@link GeneratorSourceP}. */
    public static <T> StreamSource<T> generator(double itemsPerSecond, ItemFactory<? extends T> factory) {
        return generator(itemsPerSecond, Long.MAX_VALUE, factory, new ScheduleMonitor());
    }

    /**
     * An open-loop generator of {@code maxItems} items (Long.MAX_VALUE: endless) at
     * {@code itemsPerSecond} in total, reporting progress and schedule lag to {@code monitor}.
     */
    public static <T> StreamSource<T> generator(double itemsPerSecond, long maxItems, ItemFactory<? extends T> factory, ScheduleMonitor monitor) {
        return generator(itemsPerSecond, maxItems, () -> factory, monitor);
    }

    /**
     * Like {@link #generator(double, long, ItemFactory, ScheduleMonitor)}, for a factory with state
     * (a random generator, a reused encoder): each instance, on its own thread, gets its own from
     * {@code factories}.
     */
    public static <T> StreamSource<T> generator(double itemsPerSecond, long maxItems, Supplier<? extends ItemFactory<? extends T>> factories,
                                                ScheduleMonitor monitor) {
        return generator(itemsPerSecond, maxItems, factories, monitor, GeneratorSourceP.SharedStart::new);
    }

    /**
     * Like {@link #generator(double, long, Supplier, ScheduleMonitor)}, on the time origin
     * {@code start} gives: a cluster's members pass one fixed origin so they follow one schedule.
     */
    public static <T> StreamSource<T> generator(double itemsPerSecond, long maxItems, Supplier<? extends ItemFactory<? extends T>> factories,
                                                ScheduleMonitor monitor, Supplier<GeneratorSourceP.SharedStart> start) {
        return new StreamSource<>("generator", plan -> {
            GeneratorSourceP.SharedStart origin = start.get();
            return () -> new GeneratorSourceP<>(itemsPerSecond, maxItems, planned(factories.get(), plan), plan.watermarks(), origin, monitor);
        });
    }

    private static <T> ItemFactory<T> planned(ItemFactory<T> factory, SourcePlan plan) {
        return plan.reusableItems() ? factory.reusingItems() : factory;
    }
}
