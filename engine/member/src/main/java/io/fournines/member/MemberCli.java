package io.fournines.member;

import io.fournines.nexmark.run.RunFiles;
import io.fournines.nexmark.run.StoppableRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** Entry point of {@code fournines-member.jar}: {@code java -jar fournines-member.jar run --scenario FILE --out DIR}. */
@Command(name = "fournines-member",
        description = "One fournines engine member.",
        subcommands = {MemberCli.RunCommand.class, ServeCommand.class, ConsumeCommand.class})
public final class MemberCli {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    public static void main(String[] args) {
        System.exit(commandLine(true).execute(args));
    }

    /** The command tree; {@code onSignal} false for tests, which run it inside their own JVM. */
    static CommandLine commandLine(boolean onSignal) {
        CommandLine cli = new CommandLine(new MemberCli());
        ((RunCommand) cli.getSubcommands().get("run").getCommand()).stopOnSignal = onSignal;
        return cli;
    }

    @Command(name = "run",
            description = {
                "Runs the scenario's query on an in-process engine fed by the open-loop NEXMark generator for warmup_s + duration_s,",
                "writing latency.hlog, completion.hlog (windowed queries), throughput.csv, cpu.csv and member.json into DIR",
                "and a JSON progress line on stdout each second. Exit: 0 done, 1 job failed, 2 bad scenario, 3 or 128+N stopped early."})
    static final class RunCommand implements Callable<Integer> {

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Mixin
        RunFiles files;

        @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT", description = "with load.source kafka: the broker to read from")
        String kafkaBootstrap;

        @Option(names = "--kafka-topic", paramLabel = "TOPIC", description = "with load.source kafka: the topic the load generator fills")
        String kafkaTopic;

        boolean stopOnSignal;

        @Override
        public Integer call() throws Exception {
            Scenario scenario;
            try {
                scenario = Scenario.read(files.scenario);
            } catch (ScenarioException e) {
                System.err.println("member: " + e.getMessage());
                return 2;
            }
            if (scenario.members() != 1) {
                System.err.println("member: " + files.scenario + ": cluster.members: `run` runs one member alone; is " + scenario.members()
                        + " (start that many `serve` members and submit the job to one of them)");
                return 2;
            }
            boolean fromKafka = scenario.source().equals(Scenario.KAFKA);
            if (fromKafka != (kafkaBootstrap != null && kafkaTopic != null)) {
                System.err.println("member: " + (fromKafka ? "load.source is kafka: --kafka-bootstrap and --kafka-topic are required"
                        : "--kafka-bootstrap and --kafka-topic are only for load.source kafka; it is " + scenario.source()));
                return 2;
            }
            MemberRun run = new MemberRun(scenario, files.out, System.out, null,
                    fromKafka ? new KafkaLoad.Endpoint(kafkaBootstrap, kafkaTopic) : null);
            return stopOnSignal ? StoppableRun.runStoppingOnSignal(run, System.err) : run.run(System.err);
        }
    }
}
