package io.fournines.nexmark.driver;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.util.concurrent.Callable;

/**
 * The command line every engine's member shares: {@code run --scenario FILE --out DIR}
 * (scenarios/docs/member-contract.md). Exit 0 done, 1 the job failed, 2 a scenario this engine
 * cannot run, 3 stopped early; SIGTERM and SIGINT stop the job and close the files first.
 */
public final class DriverCli {

    private DriverCli() {
    }

    /** Runs the command line with {@code engine} and exits the JVM with its code. */
    public static void main(EngineAdapter engine, String[] args) {
        System.exit(commandLine(engine).execute(args));
    }

    /** The member's command tree with its {@code run} command; an engine may add commands of its own. */
    public static CommandLine commandLine(EngineAdapter engine) {
        return new CommandLine(new Root()).addSubcommand(new RunCommand(engine));
    }

    @Command(name = "member", description = "An engine's member for the fournines runner.")
    static final class Root {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
    }

    @Command(name = "run", description = {
        "Runs the scenario's query on this engine for warmup_s + duration_s, fed by the open-loop NEXMark generator",
        "(or, with load.source kafka, by the topic the load generator fills), writing latency.hlog, completion.hlog",
        "(windowed queries), throughput.csv, cpu.csv, load.csv and member.json into DIR and a JSON progress line on stdout each second.",
        "Exit: 0 done, 1 job failed, 2 bad scenario, 3 or 128+N stopped early."})
    static final class RunCommand implements Callable<Integer> {
        private final EngineAdapter engine;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Mixin
        RunFiles files;

        @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT", description = "with load.source kafka: the broker to read from")
        String kafkaBootstrap;

        @Option(names = "--kafka-topic", paramLabel = "TOPIC", description = "with load.source kafka: the topic the load generator fills")
        String kafkaTopic;

        RunCommand(EngineAdapter engine) {
            this.engine = engine;
        }

        @Override
        public Integer call() throws Exception {
            Scenario scenario;
            try {
                scenario = Scenario.read(files.scenario, engine.name());
            } catch (ScenarioException e) {
                System.err.println(engine.name() + " member: " + e.getMessage());
                return 2;
            }
            try {
                if (scenario.members() != 1) {
                    throw new ScenarioException("cluster.members: `run` runs one member alone; is " + scenario.members()
                            + " (start that many `serve` members and submit the job to one of them)");
                }
                if ((kafkaBootstrap == null) != (kafkaTopic == null)) {
                    throw new ScenarioException("--kafka-bootstrap and --kafka-topic go together");
                }
                if (kafkaBootstrap != null) {
                    scenario = scenario.withKafka(new KafkaEndpoint(kafkaBootstrap, kafkaTopic, null));
                }
                scenario.checkLoadEndpoint();
            } catch (ScenarioException e) {
                System.err.println(engine.name() + " member: " + files.scenario + ": " + e.getMessage());
                return 2;
            }
            return StoppableRun.runStoppingOnSignal(new DriverRun(scenario, engine, files.out, System.out), System.err);
        }
    }
}
