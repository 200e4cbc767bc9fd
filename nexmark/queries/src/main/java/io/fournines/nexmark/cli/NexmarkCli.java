package io.fournines.nexmark.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Entry point of {@code fournines-nexmark.jar}: {@code java -jar fournines-nexmark.jar generate|query ...}. */
@Command(name = "nexmark",
        description = "NEXMark events for fournines.",
        subcommands = {GenerateCommand.class, QueryCommand.class})
public final class NexmarkCli {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command tree, also used by tests to run commands in-process. */
    static CommandLine commandLine() {
        return new CommandLine(new NexmarkCli());
    }
}
