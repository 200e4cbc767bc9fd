package io.fournines.nexmark.fournines;

import io.fournines.engine.cluster.JobPart;
import io.fournines.nexmark.driver.DriverRun;
import io.fournines.nexmark.driver.Scenario;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** One member's part of a cluster job: the driver's run of the reference engine, as {@code serve} runs it. */
final class FourninesPart implements JobPart {

    private final Scenario scenario;
    private final FourninesEngine engine;
    private final DriverRun run;

    FourninesPart(Scenario scenario, FourninesEngine engine, Path dir, PrintStream out) {
        this.scenario = scenario;
        this.engine = engine;
        this.run = new DriverRun(scenario, engine, dir, out);
    }

    @Override
    public void prepare() {
        FourninesEngine.prepare(scenario);
    }

    @Override
    public int run(PrintStream err) throws Exception {
        return run.run(err);
    }

    @Override
    public void requestStop() {
        run.requestStop();
    }

    @Override
    public boolean awaitFinished(long seconds) throws InterruptedException {
        return run.awaitFinished(seconds);
    }

    @Override
    public void fail(Throwable cause) {
        engine.fail(cause);
    }

    @Override
    public Throwable failure() {
        return engine.failure();
    }

    @Override
    public Map<String, Long> metrics() {
        return engine.metrics();
    }

    @Override
    public long scheduleLagNanos() {
        return engine.scheduleLagNanos();
    }
}
