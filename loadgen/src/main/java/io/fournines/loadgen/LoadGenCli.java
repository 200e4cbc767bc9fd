package io.fournines.loadgen;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Entry point of {@code fournines-loadgen.jar}: {@code create-topic}, {@code run} and {@code read-topic}. */
@Command(name = "fournines-loadgen",
        description = "The open-loop event-stream simulator: NEXMark or stock trades into Kafka at a fixed rate.",
        subcommands = {CreateTopicCommand.class, RunCommand.class, ReadTopicCommand.class})
public final class LoadGenCli {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    public static void main(String[] args) {
        System.exit(commandLine(true).execute(args));
    }

    /** The command tree; {@code onSignal} false for tests, which run it inside their own JVM. */
    static CommandLine commandLine(boolean onSignal) {
        CommandLine cli = new CommandLine(new LoadGenCli());
        ((RunCommand) cli.getSubcommands().get("run").getCommand()).stopOnSignal = onSignal;
        return cli;
    }
}
