package io.fournines.nexmark.driver;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The member contract's two options (scenarios/docs/member-contract.md): the runner's
 * resolved scenario and where the result files go. A picocli mixin, so every member command
 * (the reference engine's, the peers', the active-active consumer) declares them alike.
 */
public final class RunFiles {

    @Option(names = "--scenario", required = true, paramLabel = "FILE", description = "the runner's resolved scenario.json")
    public Path scenario;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "where the result files go")
    public Path out;
}
