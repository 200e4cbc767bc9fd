package io.fournines.loadgen;

import picocli.CommandLine.Option;

/** The broker and the topic, as every load-generator command takes them (a picocli mixin). */
final class TopicOptions {

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "bootstrap.servers")
    String bootstrap;

    @Option(names = "--topic", required = true, description = "the topic")
    String topic;
}
