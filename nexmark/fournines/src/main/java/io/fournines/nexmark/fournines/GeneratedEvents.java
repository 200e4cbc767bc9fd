package io.fournines.nexmark.fournines;

import io.fournines.engine.processor.GeneratorSourceP.ItemFactory;
import io.fournines.nexmark.generator.GeneratorConfig;
import io.fournines.nexmark.generator.NexmarkGenerator;
import io.fournines.nexmark.model.Event;

/**
 * The NEXMark events of one source instance, each timed by its scheduled time; where the job keeps
 * nothing of an event once taken, with its bids refilled into one object ({@link NexmarkGenerator#refillingBids}).
 */
final class GeneratedEvents implements ItemFactory<Event> {

    private final GeneratorConfig config;
    private final NexmarkGenerator generator;

    GeneratedEvents(GeneratorConfig config) {
        this(config, new NexmarkGenerator(config));
    }

    private GeneratedEvents(GeneratorConfig config, NexmarkGenerator generator) {
        this.config = config;
        this.generator = generator;
    }

    @Override
    public Event create(long sequence, long scheduledEpochNanos) {
        return generator.event(sequence, FourninesPipelines.millis(scheduledEpochNanos));
    }

    @Override
    public ItemFactory<Event> reusingItems() {
        return new GeneratedEvents(config, NexmarkGenerator.refillingBids(config));
    }
}
