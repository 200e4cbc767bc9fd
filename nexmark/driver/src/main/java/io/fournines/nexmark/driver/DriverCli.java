package io.fournines.nexmark.driver;

import io.fournines.nexmark.run.RunFiles;
import io.fournines.nexmark.run.StoppableRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * The command line every peer-engine member shares: {@code run --scenario FILE --out DIR}, as the
 * reference member's (scenarios/README.md, "The member contract"). Exit 0 done, 1 the job failed,
 * 2 a scenario this engine cannot run, 3 stopped early; SIGTERM and SIGINT stop the job and close
 * the files first.
 */
public final class DriverCli {

    private DriverCli() {
    }

    /** Runs the command line with {@code engine} and exits the JVM with its code. */
    public static void main(PeerEngine engine, String[] args) {
        System.exit(new CommandLine(new Root()).addSubcommand(new RunCommand(engine)).execute(args));
    }

    @Command(name = "member", description = "A peer-engine member for the fournines runner.")
    static final class Root {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;
    }

    @Command(name = "run", description = {
        "Runs the scenario's query on this engine fed by the open-loop NEXMark generator for warmup_s + duration_s,",
        "writing latency.hlog, completion.hlog (windowed queries), throughput.csv, cpu.csv and member.json into DIR",
        "and a JSON progress line on stdout each second. Exit: 0 done, 1 job failed, 2 bad scenario, 3 or 128+N stopped early."})
    static final class RunCommand implements Callable<Integer> {
        private final PeerEngine engine;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        boolean help;

        @Mixin
        RunFiles files;

        RunCommand(PeerEngine engine) {
            this.engine = engine;
        }

        @Override
        public Integer call() throws Exception {
            DriverScenario scenario;
            try {
                scenario = DriverScenario.read(files.scenario, engine.name(), engine.queries());
            } catch (ScenarioException e) {
                System.err.println(engine.name() + " member: " + e.getMessage());
                return 2;
            }
            return StoppableRun.runStoppingOnSignal(new DriverRun(scenario, engine, files.out, System.out), System.err);
        }
    }
}
