package io.fournines.nexmark.fournines;

import io.fournines.engine.member.ProxyCommand;
import io.fournines.engine.member.ServeCommand;
import io.fournines.nexmark.driver.DriverCli;
import picocli.CommandLine;

/**
 * Entry point of {@code fournines-member.jar}, the reference engine's member: {@code run} (one
 * member alone, the driver's command as every engine's), {@code serve} (one member of a static
 * cluster, running the scenarios submitted to it), {@code consume} (an active-active run's
 * result consumer) and {@code proxy} (fault-injecting proxies between a local cluster's members).
 */
public final class FourninesMember {

    private FourninesMember() {
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return DriverCli.commandLine(new FourninesEngine(null, System.err))
                .addSubcommand(new ServeCommand(new FourninesJobRunner(System.out, System.err)))
                .addSubcommand(new ConsumeCommand())
                .addSubcommand(new ProxyCommand());
    }
}
